/**
 * A document's versions, newest first: the current one marked; any other can be restored (it becomes
 * current, the one it replaces stays listed), downloaded, or deleted for good after a second click.
 */
import { useState } from "react";
import { Download, RotateCcw, Trash2 } from "lucide-react";
import { Badge } from "@/components/Badge";
import { Button, IconButton } from "@/components/Button";
import { Dialog } from "@/components/Dialog";
import { SkeletonRows } from "@/components/Skeleton";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { formatBytes, formatDateTime, formatRelative } from "@/lib/format";
import { formatLength } from "@/lib/location";
import type { DocumentVersion, LibraryDocument } from "../api/types";
import { useDeleteVersion, useRestoreVersion, useVersions, versionFileUrl } from "../api/versions";

function VersionRow({ doc, version }: { doc: LibraryDocument; version: DocumentVersion }) {
  const [confirming, setConfirming] = useState(false);
  const restore = useRestoreVersion(doc.id);
  const remove = useDeleteVersion(doc.id);
  const toast = useToast();
  const details = [formatBytes(version.size_bytes), version.pages ? formatLength(version.kind, version.pages) : null]
    .filter(Boolean).join(" · ");

  const onRestore = () => restore.mutate(version.version, {
    onSuccess: () => toast({ tone: "success", title: `Version ${version.version} is current again` }),
    onError: (error) => toast({ tone: "error", title: "Couldn't restore that version", body: errorMessage(error) }),
  });
  const onDelete = () => remove.mutate(version.version, {
    onSuccess: () => toast({ tone: "success", title: `Deleted version ${version.version}` }),
    onError: (error) => {
      setConfirming(false);
      toast({ tone: "error", title: "Couldn't delete that version", body: errorMessage(error) });
    },
  });

  return (
    <li data-testid="version-row" data-version={version.version} data-current={version.current}
      className="flex flex-wrap items-center gap-x-3 gap-y-2 py-2.5">
      <div className="min-w-0 flex-1">
        <p className="flex items-center gap-2 text-sm font-medium">
          Version {version.version}
          {version.current && <Badge tone="accent">Current</Badge>}
        </p>
        <p className="truncate text-xs text-ink-muted" title={`${version.filename} · ${formatDateTime(version.created_at)}`}>
          {version.filename !== doc.filename && <>{version.filename} · </>}
          Added {formatRelative(version.created_at)}{details && ` · ${details}`}
        </p>
      </div>
      {confirming ? (
        <div className="flex items-center gap-1.5" role="group" aria-label={`Delete version ${version.version}?`}>
          <span className="text-xs text-danger">Delete for good?</span>
          <Button size="sm" onClick={() => setConfirming(false)} autoFocus>Keep</Button>
          <Button size="sm" variant="danger" loading={remove.isPending} onClick={onDelete}>Delete</Button>
        </div>
      ) : (
        <div className="flex items-center gap-0.5">
          <a href={versionFileUrl(doc.id, version.version)} download={version.filename}
            aria-label={`Download version ${version.version}`} title="Download"
            className="inline-flex size-8 items-center justify-center rounded-md text-ink-faint hover:bg-surface-2 hover:text-ink">
            <Download size={15} />
          </a>
          {!version.current && (
            <>
              <Button size="sm" variant="ghost" icon={<RotateCcw size={14} />} loading={restore.isPending} onClick={onRestore}
                aria-label={`Restore version ${version.version}`}>
                Restore
              </Button>
              <IconButton label={`Delete version ${version.version}`} size="sm" className="size-8 hover:text-danger"
                onClick={() => setConfirming(true)}>
                <Trash2 size={15} />
              </IconButton>
            </>
          )}
        </div>
      )}
    </li>
  );
}

export function VersionsDialog({ doc, onClose }: { doc: LibraryDocument | null; onClose: () => void }) {
  const versions = useVersions(doc?.id ?? null);
  return (
    <Dialog
      open={doc !== null}
      onClose={onClose}
      title={`Versions of “${doc?.filename ?? ""}”`}
      description="Replacing a file keeps the earlier version here. Restoring one makes it current without losing the others."
      className="max-w-lg"
      footer={<Button onClick={onClose}>Done</Button>}
    >
      {doc && (
        <div className="max-h-96 overflow-y-auto">
          {versions.isPending && <SkeletonRows rows={2} label="Loading versions" />}
          {versions.isError && <p role="alert" className="text-sm text-danger">Couldn't load the versions: {errorMessage(versions.error)}</p>}
          {versions.isSuccess && (
            <ul className="divide-y divide-line" aria-label="Versions">
              {versions.data.map((version) => <VersionRow key={version.version} doc={doc} version={version} />)}
            </ul>
          )}
        </div>
      )}
    </Dialog>
  );
}
