/**
 * "Not added": files Quire refused (wrong type, damaged, too large, password-protected…) with the
 * reason, as the server keeps them — still here after a reload or a restart, until dismissed.
 */
import { AlertTriangle, X } from "lucide-react";
import { Button, IconButton } from "@/components/Button";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { formatDateTime, formatRelative, plural } from "@/lib/format";
import { useDismissRefusals, useRefusals } from "../api/refusals";

export function NotAdded() {
  const refusals = useRefusals();
  const dismiss = useDismissRefusals();
  const toast = useToast();
  const list = refusals.data ?? [];
  if (!list.length) return null;

  const onDismiss = (id: string | null) => dismiss.mutate(id, {
    onError: (error) => toast({ tone: "error", title: "Couldn't dismiss", body: errorMessage(error) }),
  });

  return (
    <section aria-labelledby="not-added-title" data-testid="not-added" className="rounded-2xl border border-line bg-surface shadow-card">
      <div className="flex items-center gap-2 border-b border-line px-4 py-2.5">
        <AlertTriangle size={15} className="shrink-0 text-danger" />
        <h2 id="not-added-title" className="flex-1 text-sm font-semibold">
          Not added <span className="font-normal text-ink-muted">· {plural(list.length, "file")}</span>
        </h2>
        {list.length > 1 && <Button size="sm" variant="ghost" onClick={() => onDismiss(null)}>Dismiss all</Button>}
      </div>
      <ul className="divide-y divide-line">
        {list.map((refusal) => (
          <li key={refusal.id} data-testid="refusal" data-filename={refusal.filename} className="flex items-start gap-3 px-4 py-2.5">
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
                <span className="min-w-0 font-medium break-all text-ink">{refusal.filename}</span>
                {refusal.category && <span className="text-xs text-ink-faint">{refusal.category}</span>}
              </p>
              <p className="text-[13px] text-danger">{refusal.message}</p>
            </div>
            <time dateTime={refusal.created_at} title={formatDateTime(refusal.created_at)}
              className="shrink-0 pt-0.5 text-xs whitespace-nowrap text-ink-faint">
              {formatRelative(refusal.created_at)}
            </time>
            <IconButton label={`Dismiss ${refusal.filename}`} size="sm" onClick={() => onDismiss(refusal.id)}>
              <X size={15} />
            </IconButton>
          </li>
        ))}
      </ul>
    </section>
  );
}
