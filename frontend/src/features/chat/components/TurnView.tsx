/** One question and its answer: reasoning, tool chips, sources (before the text), the answer, actions. */
import { useMemo, useState } from "react";
import { AlertTriangle, Check, Copy, FileQuestion, NotebookPen, Paperclip, Pencil, RotateCcw, Square } from "lucide-react";
import { useNavigate } from "react-router";
import { useSaveAnswerAsNote } from "@/api/notes";
import { Button, IconButton } from "@/components/Button";
import { TextArea } from "@/components/Input";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import type { Citation } from "../api/types";
import { citedNumbers, isCovered, readingNotice } from "../lib/citations";
import { isUngrounded, readingLabel } from "../lib/grounding";
import { turnPhase, type ChatTurn } from "../lib/turns";
import { AnswerMarkdown } from "./AnswerMarkdown";
import { NoReasoning, ReasoningPanel } from "./ReasoningPanel";
import { SourceGroups } from "./SourceGroups";
import { ToolChips } from "./ToolChips";

const NO_CITATIONS: Citation[] = [];

const PHASE_TEXT = {
  thinking: "Thinking…",
  searching: "Searching your documents…",
  reading: "",
  waiting: "Working on it…",
  answering: "",
  done: "",
};

function phaseText(turn: ChatTurn, phase: ReturnType<typeof turnPhase>): string {
  if (phase === "reading" && turn.reading) return readingLabel(turn.reading.prompt_tokens, turn.reading.waited_s);
  return PHASE_TEXT[phase];
}

/** "Not from your documents": an answer that cites no relevant passage is never passed off as a cited one. */
function UngroundedNotice({ turn }: { turn: ChatTurn }) {
  if (!turn.grounding || !isUngrounded(turn.grounding.status)) return null;
  return (
    <p role="note" data-testid="ungrounded-notice" data-grounding={turn.grounding.status}
      className="flex items-start gap-2 rounded-lg border border-warn/40 bg-warn/10 px-3 py-2 text-[13px] text-ink">
      <FileQuestion size={14} className="mt-0.5 shrink-0 text-warn" />
      <span>{turn.grounding.message}</span>
    </p>
  );
}

function AttachmentNames({ turn }: { turn: ChatTurn }) {
  return (
    <ul className="mt-2 flex flex-wrap gap-1.5">
      {turn.attachments.map((file) => (
        <li key={file.name} className="inline-flex items-center gap-1 rounded-md bg-surface/70 px-2 py-0.5 text-xs text-ink-muted">
          <Paperclip size={11} /> {file.name}
        </li>
      ))}
    </ul>
  );
}

/**
 * Editing a question that had attachments offers to keep them, ticked: an edit usually rewords the
 * question about the same files, and they are no longer in the browser to attach again. Unticked, the
 * edited question goes without them, as a plain rewind.
 */
function Question({ turn, canEdit, onEdit }: {
  turn: ChatTurn;
  canEdit: boolean;
  onEdit: (text: string, keepAttachments: boolean) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(turn.question);
  const [keep, setKeep] = useState(true);
  const hasAttachments = turn.attachments.length > 0;
  if (editing) {
    const submit = () => {
      if (!draft.trim()) return;
      setEditing(false);
      onEdit(draft.trim(), hasAttachments && keep);
    };
    return (
      <div className="ml-auto w-full max-w-[85%] space-y-2">
        <TextArea
          autoFocus
          aria-label="Edit your question"
          value={draft}
          rows={3}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey) {
              event.preventDefault();
              submit();
            }
            if (event.key === "Escape") {
              event.stopPropagation();
              setEditing(false);
            }
          }}
          className="w-full"
        />
        {hasAttachments && (
          <label className="flex items-center gap-2 text-xs text-ink-muted">
            <input type="checkbox" checked={keep} onChange={(event) => setKeep(event.target.checked)} className="accent-accent" />
            Keep the attached files ({turn.attachments.map((file) => file.name).join(", ")})
          </label>
        )}
        <div className="flex justify-end gap-2">
          <Button size="sm" onClick={() => setEditing(false)}>Cancel</Button>
          <Button size="sm" variant="primary" onClick={submit} disabled={!draft.trim()}>Send edited question</Button>
        </div>
      </div>
    );
  }
  return (
    <div className="group flex items-start justify-end gap-1">
      {canEdit && (
        <IconButton
          label="Edit question"
          size="sm"
          onClick={() => {
            setDraft(turn.question);
            setKeep(true);
            setEditing(true);
          }}
          className="mt-1 opacity-0 group-hover:opacity-100 focus-visible:opacity-100"
        >
          <Pencil size={14} />
        </IconButton>
      )}
      <div className="max-w-[85%] rounded-2xl rounded-tr-md bg-accent-soft px-4 py-2.5 text-accent-soft-ink">
        <p className="text-[14px] whitespace-pre-wrap">{turn.question}</p>
        {hasAttachments && <AttachmentNames turn={turn} />}
      </div>
    </div>
  );
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <IconButton
      label={copied ? "Copied" : "Copy answer"}
      size="sm"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
    >
      {copied ? <Check size={14} /> : <Copy size={14} />}
    </IconButton>
  );
}

/** Save the answer, with its question and sources, as a note (a source like any document). */
function SaveNoteButton({ sessionId, messageId }: { sessionId: string; messageId: string }) {
  const save = useSaveAnswerAsNote();
  const toast = useToast();
  const navigate = useNavigate();
  return (
    <IconButton label={save.isSuccess ? "Saved as a note" : "Save as note"} size="sm" disabled={save.isPending || save.isSuccess}
      onClick={() => save.mutate({ session_id: sessionId, message_id: messageId }, {
        onSuccess: (note) => {
          toast({ tone: "success", title: "Saved as a note", body: `${note.filename}, in the library` });
          navigate(`/notes/${note.document_id}`);
        },
        onError: (error) => toast({ tone: "error", title: "The note wasn't saved", body: errorMessage(error) }),
      })}>
      {save.isSuccess ? <Check size={14} /> : <NotebookPen size={14} />}
    </IconButton>
  );
}

function TurnError({ turn }: { turn: ChatTurn }) {
  if (!turn.error || turn.error.code === "model_unavailable") return null;
  return (
    <p role="alert" className="flex items-start gap-2 rounded-lg bg-danger-soft px-3 py-2 text-[13px] text-danger">
      <AlertTriangle size={14} className="mt-0.5 shrink-0" />
      <span>{turn.error.message}</span>
    </p>
  );
}

export function TurnView({ turn, busy, onCite, onEdit, onRegenerate, sessionId, onContinue }: {
  turn: ChatTurn;
  /** The conversation's id, once it has one (saving an answer as a note needs it). */
  sessionId?: string;
  busy: boolean;
  onCite: (citation: Citation) => void;
  onEdit: (turn: ChatTurn, text: string, keepAttachments: boolean) => void;
  /** Ask the same question again, with the same attachments. */
  onRegenerate: (turn: ChatTurn) => void;
  /** Ask the model to go on from an answer that was cut off. */
  onContinue?: () => void;
}) {
  const phase = turnPhase(turn);
  const streaming = turn.status === "streaming";
  const stored = Boolean(turn.userMessageId);
  const searching = turn.tools.some((tool) => tool.status === "started" && tool.name === "search_knowledge_base");
  const noModel = turn.error?.code === "model_unavailable" || turn.grounding?.status === "passages";
  const status = phaseText(turn, phase);
  const cited = useMemo(() => citedNumbers(turn.answer), [turn.answer]);
  const reading = readingNotice(turn.tools);
  // Nothing relevant: the answer's [n] stay plain text, so no marker opens an unrelated passage (the closest
  // passages are behind "Show closest passages anyway").
  const linkable = isCovered(turn.citations) && !reading ? turn.citations : NO_CITATIONS;

  return (
    <article className="space-y-3" data-testid="turn" data-status={turn.status} aria-label={`Question: ${turn.question.slice(0, 80)}`}>
      <Question turn={turn} canEdit={stored && !busy} onEdit={(text, keep) => onEdit(turn, text, keep)} />
      <div className="space-y-3" data-testid="answer">
        {(turn.thinking || phase === "thinking") && <ReasoningPanel text={turn.thinking} active={phase === "thinking"} />}
        {!turn.thinking && turn.model?.reasoning === "unsupported" && <NoReasoning model={turn.model.name} />}
        <ToolChips tools={turn.tools} />
        <SourceGroups citations={turn.citations} cited={cited} loading={searching} reading={reading} onOpen={onCite} />
        {noModel && isCovered(turn.citations) && (
          <p className="flex items-center gap-1.5 text-xs text-warn" data-testid="no-model-answer" title={turn.error?.message}>
            <AlertTriangle size={13} className="shrink-0" />
            {turn.error?.code === "model_unavailable" || !turn.error
              ? "Answered without the model: these are the passages that match."
              : "The model did not finish: the passages that match follow what it wrote."}
          </p>
        )}
        {status && !(phase === "thinking" && turn.thinking) && (
          <p className="flex items-center gap-2 text-[13px] text-ink-muted" data-testid="turn-phase" data-phase={phase}>
            <span aria-hidden="true" className="size-1.5 animate-pulse-soft rounded-full bg-accent" />
            {status}
          </p>
        )}
        <UngroundedNotice turn={turn} />
        <div aria-live="polite" aria-busy={streaming}>
          {turn.preface && <p className="mb-2 text-[13px] text-ink-faint italic">{turn.preface}</p>}
          {turn.answer && <AnswerMarkdown text={turn.answer} citations={linkable} onCite={onCite} streaming={streaming} />}
        </div>
        <TurnError turn={turn} />
        {!streaming && (
          <div className="-ml-1.5 flex items-center gap-1 text-xs text-ink-faint">
            {turn.answer && <CopyButton text={turn.answer} />}
            {turn.answer && sessionId && turn.answerId && turn.status === "complete" && (
              <SaveNoteButton sessionId={sessionId} messageId={turn.answerId} />
            )}
            {stored && (
              <IconButton label="Regenerate answer" size="sm" disabled={busy} onClick={() => onRegenerate(turn)}>
                <RotateCcw size={14} />
              </IconButton>
            )}
            {turn.status === "stopped" && <span className="inline-flex items-center gap-1"><Square size={10} /> Stopped</span>}
            {turn.status === "partial" && !turn.error && (
              <span className="inline-flex items-center gap-1" data-testid="incomplete-answer">
                Incomplete answer
                {stored && onContinue && (
                  <Button size="sm" variant="ghost" disabled={busy} onClick={onContinue} data-testid="continue-answer">Continue</Button>
                )}
                {stored && (
                  <Button size="sm" variant="ghost" disabled={busy} onClick={() => onRegenerate(turn)} data-testid="ask-again">Ask again</Button>
                )}
              </span>
            )}
          </div>
        )}
      </div>
    </article>
  );
}
