/**
 * The trash: documents moved out of the library, hidden from search and chat. Restore brings one back
 * as it was (passages and embeddings included, nothing re-read); delete forever and empty trash ask
 * first, since those remove the originals for good. Old trash is emptied by the server on its own.
 */
import { useState } from "react";
import { RotateCcw, Trash, Trash2 } from "lucide-react";
import { Button, IconButton } from "@/components/Button";
import { ConfirmDialog } from "@/components/Dialog";
import { EmptyState } from "@/components/EmptyState";
import { SkeletonRows } from "@/components/Skeleton";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { fileTypeLabel, formatBytes, formatDateTime, formatRelative, plural } from "@/lib/format";
import { useDeleteForever, useEmptyTrash, useRestoreDocument, useTrash } from "../api/trash";
import type { LibraryDocument } from "../api/types";

function TrashRow({ doc, onDelete }: { doc: LibraryDocument; onDelete: (doc: LibraryDocument) => void }) {
  const restore = useRestoreDocument();
  const toast = useToast();
  const trashedAt = doc.trashed_at ?? doc.updated_at;
  const onRestore = () => restore.mutate(doc.id, {
    onSuccess: (restored) => toast({
      tone: "success",
      title: restored.filename === doc.filename ? `Restored ${doc.filename}` : `Restored as ${restored.filename}`,
      body: restored.filename === doc.filename ? undefined : "Its name had been taken in the category meanwhile.",
    }),
    onError: (error) => toast({ tone: "error", title: "Couldn't restore", body: errorMessage(error) }),
  });
  return (
    <li data-testid="trash-row" data-filename={doc.filename} className="flex flex-wrap items-center gap-x-3 gap-y-1.5 px-4 py-2.5">
      <span className="rounded bg-surface-2 px-1.5 py-0.5 font-mono text-[11px] text-ink-muted">{fileTypeLabel(doc.filename, doc.kind)}</span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium" title={doc.filename}>{doc.filename}</p>
        <p className="text-xs text-ink-muted">
          {[doc.category ?? "No category", formatBytes(doc.size_bytes)].join(" · ")} ·{" "}
          <span title={formatDateTime(trashedAt)}>deleted {formatRelative(trashedAt)}</span>
        </p>
      </div>
      <div className="flex items-center gap-1">
        <Button size="sm" icon={<RotateCcw size={14} />} loading={restore.isPending} onClick={onRestore} aria-label={`Restore ${doc.filename}`}>
          Restore
        </Button>
        <IconButton label={`Delete ${doc.filename} forever`} size="sm" className="size-8 hover:text-danger" onClick={() => onDelete(doc)}>
          <Trash2 size={15} />
        </IconButton>
      </div>
    </li>
  );
}

export function TrashView() {
  const trash = useTrash();
  const deleteForever = useDeleteForever();
  const emptyTrash = useEmptyTrash();
  const toast = useToast();
  const [pending, setPending] = useState<LibraryDocument | null>(null);
  const [confirmEmpty, setConfirmEmpty] = useState(false);
  // An older server ignores `?status=trashed`; only trashed documents belong here.
  const docs = (trash.data ?? []).filter((doc) => doc.status === "trashed");

  const onDeleteForever = () => {
    if (!pending) return;
    const doc = pending;
    deleteForever.mutate(doc.id, {
      onSuccess: () => {
        setPending(null);
        toast({ tone: "success", title: `Deleted ${doc.filename} for good` });
      },
      onError: (error) => toast({ tone: "error", title: "Couldn't delete", body: errorMessage(error) }),
    });
  };
  const onEmpty = () => emptyTrash.mutate(undefined, {
    onSuccess: ({ deleted }) => {
      setConfirmEmpty(false);
      toast({ tone: "success", title: `Emptied the trash`, body: `${plural(deleted, "document")} deleted for good.` });
    },
    onError: (error) => toast({ tone: "error", title: "Couldn't empty the trash", body: errorMessage(error) }),
  });

  return (
    <section aria-labelledby="trash-title" className="rounded-2xl border border-line bg-surface shadow-card">
      <div className="flex items-center gap-3 border-b border-line px-4 py-3">
        <div className="min-w-0 flex-1">
          <h2 id="trash-title" className="text-sm font-semibold">Trash</h2>
          <p className="text-xs text-ink-muted">Not searched and not used in chat or study. Emptied automatically after 30 days unless set otherwise.</p>
        </div>
        {docs.length > 0 && (
          <Button size="sm" variant="danger" icon={<Trash size={14} />} onClick={() => setConfirmEmpty(true)}>Empty trash</Button>
        )}
      </div>
      {trash.isPending && <SkeletonRows rows={3} label="Loading the trash" />}
      {trash.isError && (
        <div role="alert" className="flex items-center justify-between gap-3 p-4 text-sm text-danger">
          <span>Couldn't load the trash: {errorMessage(trash.error)}</span>
          <Button size="sm" onClick={() => void trash.refetch()}>Try again</Button>
        </div>
      )}
      {trash.isSuccess && docs.length === 0 && (
        <EmptyState icon={<Trash size={20} />} title="The trash is empty" className="py-10">
          Documents you move to the trash wait here, restorable, until you delete them.
        </EmptyState>
      )}
      {docs.length > 0 && (
        <ul className="divide-y divide-line" aria-label="Documents in the trash">
          {docs.map((doc) => <TrashRow key={doc.id} doc={doc} onDelete={setPending} />)}
        </ul>
      )}
      <ConfirmDialog
        open={pending !== null}
        title={`Delete “${pending?.filename ?? ""}” forever?`}
        description="The document, all its versions and its original files are removed from the vault. This can't be undone."
        confirmLabel="Delete forever"
        busy={deleteForever.isPending}
        onConfirm={onDeleteForever}
        onCancel={() => setPending(null)}
      />
      <ConfirmDialog
        open={confirmEmpty}
        title="Empty the trash?"
        description={`${plural(docs.length, "document")}, with all their versions and original files, will be deleted for good. This can't be undone.`}
        confirmLabel="Empty trash"
        busy={emptyTrash.isPending}
        onConfirm={onEmpty}
        onCancel={() => setConfirmEmpty(false)}
      />
    </section>
  );
}
