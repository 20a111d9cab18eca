/** The frame of the study screens: page width and padding (as the Library's), and a header with a way back. */
import type { ReactNode } from "react";
import { ChevronLeft } from "lucide-react";
import { Link } from "react-router";
import { ModelNotice } from "@/components/ModelNotice";
import { cn } from "@/lib/cn";

export function PageShell({ children, narrow, className }: { children: ReactNode; narrow?: boolean; className?: string }) {
  return (
    <div className={cn("mx-auto w-full space-y-6 px-4 py-6 sm:px-6 lg:px-8 lg:py-8", narrow ? "max-w-3xl" : "max-w-6xl", className)}>
      {children}
    </div>
  );
}

export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="-ml-1 inline-flex items-center gap-0.5 rounded-md px-1 py-0.5 text-[13px] font-medium text-ink-muted hover:text-ink">
      <ChevronLeft size={15} />
      {children}
    </Link>
  );
}

export function StudyHeader({ back, title, subtitle, actions, badges }: {
  back?: { to: string; label: string };
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  badges?: ReactNode;
}) {
  return (
    <header className="space-y-1.5">
      {back && <BackLink to={back.to}>{back.label}</BackLink>}
      {/* Actions sit beside the title when they fit (a lone icon on a phone), else wrap below it. */}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-[1_1_15rem]">
          <h1 className="text-xl font-semibold tracking-tight break-words">{title}</h1>
          {(subtitle || badges) && (
            <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-ink-muted">
              {badges}
              {subtitle && <span>{subtitle}</span>}
            </div>
          )}
        </div>
        {actions && <div className="flex max-w-full flex-wrap items-center gap-2">{actions}</div>}
      </div>
    </header>
  );
}

/** A titled block of a study screen. */
export function Panel({ title, children, className, actions, id }: {
  title?: ReactNode;
  children: ReactNode;
  className?: string;
  actions?: ReactNode;
  id?: string;
}) {
  return (
    <section aria-labelledby={title && id ? id : undefined} className={cn("rounded-2xl border border-line bg-surface p-4 shadow-card sm:p-5", className)}>
      {(title || actions) && (
        <div className="mb-3 flex items-center justify-between gap-3">
          {title && <h2 id={id} className="text-sm font-semibold">{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

/** Why nothing new can be generated right now, on the screens that generate. */
export function StudyModelNotice() {
  return <ModelNotice consequence="nothing new can be generated"
    stillWorks="Quizzes, decks, workshops and mind maps you already have keep working." />;
}
