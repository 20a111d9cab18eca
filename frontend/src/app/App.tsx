/** The app's providers (server state, toasts, theme) around the router. */
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router";
import { ToastProvider } from "@/components/Toast";
import { queryClient } from "./queryClient";
import { router } from "./router";
import { ThemeProvider } from "./theme";

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
