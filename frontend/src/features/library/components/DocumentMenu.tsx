/**
 * A document's actions, behind one "…" button per row: open the original, its Versions (list,
 * restore, delete, download) and Move to trash (restorable from the Trash view, so no "are you sure").
 */
import { useState } from "react";
import { ExternalLink, History, MoreHorizontal, Trash2 } from "lucide-react";
import { documentFileUrl } from "@/api/vault";
import { Popover } from "@/components/Popover";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { cn } from "@/lib/cn";
import { useTrashDocument } from "../api/documents";
import type { LibraryDocument } from "../api/types";
import { VersionsDialog } from "./VersionsDialog";

const ITEM = "flex w-full items-center gap-2.5 rounded-md px-2.5 py-1.5 text-left text-sm text-ink hover:bg-surface-2 focus-visible:bg-surface-2";

export function DocumentMenu({ doc }: { doc: LibraryDocument }) {
  const [versionsOpen, setVersionsOpen] = useState(false);
  const trash = useTrashDocument();
  const toast = useToast();

  const moveToTrash = () => {
    trash.mutate(doc.id, {
      onSuccess: () => toast({ tone: "success", title: `Moved ${doc.filename} to the trash`, body: "Restore it from Trash any time." }),
      onError: (error) => toast({ tone: "error", title: "Couldn't move it to the trash", body: errorMessage(error) }),
    });
  };

  return (
    <>
      <Popover
        label={`Actions for ${doc.filename}`}
        align="end"
        fixed
        className="min-w-52"
        trigger={({ open, toggle, id }) => (
          <button
            type="button"
            aria-label={`More actions for ${doc.filename}`}
            title="More actions"
            aria-expanded={open}
            aria-controls={id}
            aria-haspopup="menu"
            onClick={toggle}
            className={cn(
              "inline-flex size-8 items-center justify-center rounded-md text-ink-faint transition-colors hover:bg-surface-3 hover:text-ink",
              open && "bg-surface-3 text-ink",
            )}
          >
            <MoreHorizontal size={16} />
          </button>
        )}
      >
        {(close) => (
          <div role="menu" aria-label={`Actions for ${doc.filename}`} className="flex flex-col">
            <a role="menuitem" href={documentFileUrl(doc.id)} target="_blank" rel="noopener" className={ITEM} onClick={close}>
              <ExternalLink size={15} className="text-ink-faint" /> Open original
            </a>
            <button role="menuitem" type="button" className={ITEM} onClick={() => { close(); setVersionsOpen(true); }}>
              <History size={15} className="text-ink-faint" />
              <span className="flex-1">Versions</span>
              {doc.versions > 1 && <span className="text-xs text-ink-faint tabular-nums">{doc.versions}</span>}
            </button>
            <div role="separator" className="my-1 h-px bg-line" />
            <button role="menuitem" type="button" className={cn(ITEM, "text-danger hover:bg-danger-soft")} disabled={trash.isPending}
              onClick={() => { close(); moveToTrash(); }}>
              <Trash2 size={15} /> Move to trash
            </button>
          </div>
        )}
      </Popover>
      <VersionsDialog doc={versionsOpen ? doc : null} onClose={() => setVersionsOpen(false)} />
    </>
  );
}
