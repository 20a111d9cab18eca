/**
 * Cancelling an ingestion from its activity entry: asks first, saying how many files are still in
 * progress and that none of them will be added, then says if the server refused.
 */
import { useState } from "react";
import { Button } from "@/components/Button";
import { ConfirmDialog } from "@/components/Dialog";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { ingestStore, type IngestEntry } from "../hooks/ingestStore";
import { cancelWarning, inFlight } from "../lib/progress";

export function CancelRun({ entry }: { entry: IngestEntry }) {
  const [asking, setAsking] = useState(false);
  const toast = useToast();
  const items = entry.snapshot?.documents ?? [];
  const pending = inFlight(items);
  if (!entry.runId || entry.ended || pending.length === 0) return null;

  const what = pending.length === 1 ? `“${pending[0]?.filename}”` : `the ${pending.length} files still in progress`;
  const confirm = () => {
    ingestStore.cancel(entry.key).then(
      () => setAsking(false),
      (error: unknown) => {
        setAsking(false);
        toast({ tone: "error", title: "The ingestion couldn't be cancelled", body: errorMessage(error) });
      },
    );
  };

  return (
    <>
      <Button size="sm" variant="ghost" onClick={() => setAsking(true)} loading={entry.cancelling}
        aria-label={`Cancel ${what}`}>
        {entry.cancelling ? "Cancelling…" : "Cancel"}
      </Button>
      <ConfirmDialog
        open={asking}
        title={`Cancel ${what}?`}
        description={cancelWarning(items)}
        confirmLabel="Cancel processing"
        cancelLabel="Keep processing"
        busy={entry.cancelling}
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}
