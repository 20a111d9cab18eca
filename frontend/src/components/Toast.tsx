/**
 * Toasts: short confirmations and errors in one polite live region (errors are announced assertively).
 * `useToast()` anywhere below <ToastProvider>.
 */
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { CheckCircle2, AlertTriangle, Info, X } from "lucide-react";
import { cn } from "@/lib/cn";

type ToastTone = "info" | "success" | "error";
interface Toast {
  id: number;
  tone: ToastTone;
  title: string;
  body?: string;
}
type Notify = (toast: Omit<Toast, "id">) => void;

const ToastContext = createContext<Notify | null>(null);

export function useToast(): Notify {
  const notify = useContext(ToastContext);
  if (!notify) throw new Error("useToast must be used inside <ToastProvider>");
  return notify;
}

const ICONS: Record<ToastTone, ReactNode> = {
  info: <Info size={16} className="text-accent" />,
  success: <CheckCircle2 size={16} className="text-ok" />,
  error: <AlertTriangle size={16} className="text-danger" />,
};

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((toast) => toast.id !== id)), []);
  const notify = useCallback<Notify>((toast) => {
    const id = nextId.current++;
    setToasts((all) => [...all.slice(-3), { ...toast, id }]);
    setTimeout(() => dismiss(id), toast.tone === "error" ? 8000 : 4000);
  }, [dismiss]);
  const value = useMemo(() => notify, [notify]);

  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-4 sm:items-end">
        {(["polite", "assertive"] as const).map((politeness) => (
          <div key={politeness} aria-live={politeness} className="flex flex-col items-center gap-2 sm:items-end">
            {toasts
              .filter((toast) => (toast.tone === "error") === (politeness === "assertive"))
              .map((toast) => (
                <div
                  key={toast.id}
                  role={toast.tone === "error" ? "alert" : "status"}
                  className={cn(
                    "pointer-events-auto flex w-full max-w-sm items-start gap-2.5 rounded-xl border border-line bg-surface p-3 shadow-card",
                  )}
                >
                  <span className="mt-0.5">{ICONS[toast.tone]}</span>
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-medium text-ink">{toast.title}</p>
                    {toast.body && <p className="mt-0.5 text-[13px] text-ink-muted">{toast.body}</p>}
                  </div>
                  <button
                    type="button"
                    aria-label="Dismiss"
                    onClick={() => dismiss(toast.id)}
                    className="rounded p-0.5 text-ink-faint hover:text-ink"
                  >
                    <X size={14} />
                  </button>
                </div>
              ))}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
