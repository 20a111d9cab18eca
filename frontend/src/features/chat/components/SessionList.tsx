/** Past conversations, newest first: open, rename in place, delete with confirmation. */
import { useState } from "react";
import { Check, MessageSquarePlus, Pencil, Trash2 } from "lucide-react";
import { NavLink, useNavigate } from "react-router";
import { Button, IconButton } from "@/components/Button";
import { ConfirmDialog } from "@/components/Dialog";
import { SkeletonRows } from "@/components/Skeleton";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { cn } from "@/lib/cn";
import { formatRelative } from "@/lib/format";
import { useDeleteSession, useRenameSession, useSessions } from "../api/sessions";
import type { ChatSession } from "../api/types";

function RenameField({ session, onDone }: { session: ChatSession; onDone: () => void }) {
  const [title, setTitle] = useState(session.title);
  const rename = useRenameSession();
  const toast = useToast();
  const save = () => {
    const next = title.trim();
    onDone();
    if (!next || next === session.title) return;
    rename.mutate({ id: session.id, title: next }, {
      onError: (error) => toast({ tone: "error", title: "Couldn't rename", body: errorMessage(error) }),
    });
  };
  return (
    <div className="flex items-center gap-1 px-1 py-1">
      <input
        autoFocus
        value={title}
        maxLength={200}
        aria-label="Conversation title"
        onChange={(event) => setTitle(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") save();
          if (event.key === "Escape") {
            event.stopPropagation();
            onDone();
          }
        }}
        onBlur={save}
        className="h-8 min-w-0 flex-1 rounded-md border border-accent bg-surface px-2 text-[13px] focus:outline-none"
      />
      <IconButton label="Save title" size="sm" onMouseDown={(event) => event.preventDefault()} onClick={save}>
        <Check size={14} />
      </IconButton>
    </div>
  );
}

export function SessionList({ activeId, onNavigate }: { activeId?: string; onNavigate?: () => void }) {
  const sessions = useSessions();
  const remove = useDeleteSession();
  const navigate = useNavigate();
  const toast = useToast();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ChatSession | null>(null);

  const confirmDelete = () => {
    if (!deleting) return;
    const target = deleting;
    remove.mutate(target.id, {
      onSuccess: () => {
        setDeleting(null);
        if (target.id === activeId) navigate("/chat");
        toast({ tone: "success", title: "Conversation deleted" });
      },
      onError: (error) => toast({ tone: "error", title: "Couldn't delete", body: errorMessage(error) }),
    });
  };

  return (
    <nav aria-label="Conversations" className="flex min-h-0 w-full flex-col">
      <div className="p-3">
        <Button className="w-full" icon={<MessageSquarePlus size={16} />} onClick={() => { navigate("/chat"); onNavigate?.(); }}>
          New chat
        </Button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-2 pb-3">
        {sessions.isPending && <SkeletonRows rows={4} label="Loading conversations" />}
        {sessions.isSuccess && sessions.data.length === 0 && (
          <p className="px-2 py-4 text-[13px] text-ink-faint">Your conversations will be listed here.</p>
        )}
        <ul className="space-y-0.5">
          {sessions.data?.map((session) => (
            <li key={session.id} className="group relative">
              {renaming === session.id ? (
                <RenameField session={session} onDone={() => setRenaming(null)} />
              ) : (
                <>
                  <NavLink
                    to={`/chat/${session.id}`}
                    onClick={onNavigate}
                    className={cn(
                      "block rounded-lg py-2 pr-2 pl-2.5 transition-colors group-focus-within:pr-16 group-hover:pr-16",
                      session.id === activeId ? "bg-surface-3 text-ink" : "text-ink-muted hover:bg-surface-2 hover:text-ink",
                    )}
                  >
                    <span className="block truncate text-[13px] font-medium">{session.title}</span>
                    <span className="block text-[11px] text-ink-faint">{formatRelative(session.updated_at)}</span>
                  </NavLink>
                  <div className="absolute top-1/2 right-1.5 flex -translate-y-1/2 gap-0.5 opacity-0 group-focus-within:opacity-100 group-hover:opacity-100">
                    <IconButton label={`Rename ${session.title}`} size="sm" onClick={() => setRenaming(session.id)}>
                      <Pencil size={13} />
                    </IconButton>
                    <IconButton label={`Delete ${session.title}`} size="sm" className="hover:text-danger" onClick={() => setDeleting(session)}>
                      <Trash2 size={13} />
                    </IconButton>
                  </div>
                </>
              )}
            </li>
          ))}
        </ul>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this conversation?"
        description={<>“{deleting?.title}” and all its answers will be removed. Your documents stay as they are.</>}
        confirmLabel="Delete conversation"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </nav>
  );
}
