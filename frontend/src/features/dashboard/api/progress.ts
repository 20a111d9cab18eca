/** The dashboard's server state: progress summary, daily series, breakdown, badges, one day, vault stats. */
import { useQuery } from "@tanstack/react-query";
import type { components } from "@/api/schema";
import { apiJson } from "@/lib/api";

type Schemas = components["schemas"];
export type Summary = Schemas["SummaryOut"];
export type Daily = Schemas["DailyOut"];
export type DayOut = Schemas["DayOut"];
export type Breakdown = Schemas["BreakdownOut"];
export type Badges = Schemas["BadgesOut"];
export type BadgeOut = Schemas["BadgeOut"];
export type DayDetail = Schemas["DayDetailOut"];
export type VaultStats = Schemas["VaultStats"];

export const HEATMAP_DAYS = 90;

export const progressKeys = {
  all: ["progress"] as const,
  summary: ["progress", "summary"] as const,
  daily: (days: number) => ["progress", "daily", days] as const,
  breakdown: ["progress", "breakdown"] as const,
  badges: ["progress", "badges"] as const,
  day: (date: string) => ["progress", "day", date] as const,
  vault: ["vault", "stats"] as const,
};

// Progress changes whenever the user studies in another tab or screen: refetch on focus and mount.
const live = { staleTime: 0, refetchOnWindowFocus: true } as const;

export function useSummary() {
  return useQuery({ queryKey: progressKeys.summary, queryFn: () => apiJson<Summary>("/api/progress/summary"), ...live });
}

export function useDaily(days = HEATMAP_DAYS) {
  return useQuery({ queryKey: progressKeys.daily(days), queryFn: () => apiJson<Daily>(`/api/progress/daily?days=${days}`), ...live });
}

export function useBreakdown() {
  return useQuery({ queryKey: progressKeys.breakdown, queryFn: () => apiJson<Breakdown>("/api/progress/breakdown"), ...live });
}

export function useBadges() {
  return useQuery({ queryKey: progressKeys.badges, queryFn: () => apiJson<Badges>("/api/progress/badges"), ...live });
}

export function useDay(date: string | null) {
  return useQuery({
    queryKey: progressKeys.day(date ?? ""),
    queryFn: () => apiJson<DayDetail>(`/api/progress/day/${date}`),
    enabled: Boolean(date),
    ...live,
  });
}

export function useVaultStats() {
  return useQuery({ queryKey: progressKeys.vault, queryFn: () => apiJson<VaultStats>("/api/vault/stats"), ...live });
}
