/** A friendly empty state that says what this place is for and how to start. */
import type { ReactNode } from "react";
import { cn } from "@/lib/cn";

export function EmptyState({ icon, title, children, actions, className }: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("mx-auto flex max-w-md flex-col items-center px-6 py-10 text-center", className)}>
      {icon && (
        <div className="mb-4 flex size-11 items-center justify-center rounded-xl bg-accent-soft text-accent-soft-ink">
          {icon}
        </div>
      )}
      <h2 className="text-base font-semibold text-ink">{title}</h2>
      {children && <div className="mt-1.5 text-sm text-ink-muted">{children}</div>}
      {actions && <div className="mt-5 flex flex-wrap justify-center gap-2">{actions}</div>}
    </div>
  );
}
