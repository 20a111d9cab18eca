/** One QueryClient: client errors (4xx) are not retried, server hiccups are, twice. */
import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "@/lib/api";

export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 5_000, retry: shouldRetry, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
