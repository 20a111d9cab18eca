/**
 * The question a name conflict asks: a file of the drop has the name of a different document already
 * in that category. One conflict at a time — the document there (name, category, size, date) beside
 * the dropped file — with Replace (it becomes the new version; the old one stays under Versions),
 * Keep both (a numbered name) or Skip, and "apply to all" for the rest of the drop. Closing the dialog
 * skips the files not answered yet: nothing is replaced without a yes.
 */
import { useEffect, useId, useRef, useState, useSyncExternalStore } from "react";
import { FileText, FolderOpen, UploadCloud } from "lucide-react";
import { Button } from "@/components/Button";
import { Dialog } from "@/components/Dialog";
import { formatBytes, formatDateTime, formatRelative } from "@/lib/format";
import { nextUnanswered, recordChoice, type ConflictChoice } from "../lib/conflicts";
import { conflictPrompts, type ConflictPrompt } from "../hooks/conflictPrompts";

function fileFor(prompt: ConflictPrompt, name: string): File | undefined {
  return prompt.files.find((file) => file.name === name)
    ?? prompt.files.find((file) => file.name.toLowerCase() === name.toLowerCase());
}

function Question({ prompt }: { prompt: ConflictPrompt }) {
  const [choices, setChoices] = useState<(ConflictChoice | undefined)[]>(() => prompt.conflicts.map(() => undefined));
  const [applyToAll, setApplyToAll] = useState(false);
  const replaceButton = useRef<HTMLButtonElement>(null);
  const checkboxId = useId();
  const index = Math.max(0, nextUnanswered(choices));
  const conflict = prompt.conflicts[index];
  const total = prompt.conflicts.length;
  const remaining = total - index;

  // Each new question starts on its first choice (the dialog itself only focuses once, on opening).
  useEffect(() => replaceButton.current?.focus(), [index]);

  if (!conflict) return null;
  const { existing } = conflict;
  const dropped = fileFor(prompt, conflict.filename);
  const where = existing.category ? `in “${existing.category}”` : "without a category";

  const choose = (choice: ConflictChoice) => {
    const next = recordChoice(choices, index, choice, applyToAll);
    if (nextUnanswered(next) < 0) prompt.answer(next as ConflictChoice[]);
    else setChoices(next);
  };
  const skipRest = () => prompt.answer(choices.map((choice) => choice ?? "skip"));

  return (
    <Dialog
      open
      onClose={skipRest}
      title={`“${conflict.filename}” is already ${where}`}
      description={
        <>
          A different file with this name is in this category. What should happen to the one you added?
          {total > 1 && <span className="mt-1 block text-xs text-ink-faint">Conflict {index + 1} of {total}</span>}
        </>
      }
      className="max-w-lg"
      footer={
        <div className="flex w-full flex-col gap-3">
          {remaining > 1 && (
            <label htmlFor={checkboxId} className="flex cursor-pointer items-center gap-2 text-[13px] text-ink-muted">
              <input id={checkboxId} type="checkbox" checked={applyToAll} onChange={(event) => setApplyToAll(event.target.checked)}
                className="size-4 accent-accent" />
              Apply to all {remaining} conflicts left in this drop
            </label>
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button onClick={() => choose("skip")}>Skip</Button>
            <Button onClick={() => choose("keep_both")}>Keep both</Button>
            <Button ref={replaceButton} variant="primary" onClick={() => choose("replace")}>Replace</Button>
          </div>
        </div>
      }
    >
      <div className="space-y-2" data-testid="conflict">
        <div className="flex items-start gap-3 rounded-xl border border-line bg-canvas p-3">
          <FileText size={18} className="mt-0.5 shrink-0 text-ink-faint" />
          <div className="min-w-0 flex-1 text-[13px]">
            <p className="text-xs font-medium text-ink-faint">In your library</p>
            <p className="truncate font-medium text-ink" title={existing.filename}>{existing.filename}</p>
            <p className="mt-0.5 flex flex-wrap items-center gap-x-1.5 text-ink-muted">
              <span className="inline-flex items-center gap-1"><FolderOpen size={12} />{existing.category ?? "No category"}</span>
              <span aria-hidden="true">·</span>
              <span>{formatBytes(existing.size_bytes)}</span>
              <span aria-hidden="true">·</span>
              <span title={formatDateTime(existing.updated_at)}>updated {formatRelative(existing.updated_at)}</span>
            </p>
          </div>
        </div>
        {dropped && (
          <div className="flex items-start gap-3 rounded-xl border border-accent/40 bg-accent-soft/40 p-3">
            <UploadCloud size={18} className="mt-0.5 shrink-0 text-accent" />
            <div className="min-w-0 flex-1 text-[13px]">
              <p className="text-xs font-medium text-ink-faint">You added</p>
              <p className="truncate font-medium text-ink" title={dropped.name}>{dropped.name}</p>
              <p className="mt-0.5 text-ink-muted">
                {formatBytes(dropped.size)} · modified {formatRelative(new Date(dropped.lastModified).toISOString())}
              </p>
            </div>
          </div>
        )}
        <ul className="space-y-1 pt-1 text-[13px] text-ink-muted">
          <li><span className="font-medium text-ink">Replace</span> — yours becomes the current version; the one there stays under Versions.</li>
          <li><span className="font-medium text-ink">Keep both</span> — yours is added as a separate document with a numbered name.</li>
          <li><span className="font-medium text-ink">Skip</span> — yours is not added.</li>
        </ul>
      </div>
    </Dialog>
  );
}

/** Shows the waiting name-conflict questions, one drop at a time. */
export function ConflictDialog() {
  const prompt = useSyncExternalStore(conflictPrompts.subscribe, conflictPrompts.current);
  return prompt ? <Question key={prompt.id} prompt={prompt} /> : null;
}
