/**
 * Cards and quiz questions whose source changed: a newer version of the document no longer holds the
 * passage they cite. Each shows the item, the passage before and after (or that it was removed), and the
 * three choices — keep it (it cites the new passage), update it (the model drafts a rewrite to edit), or
 * retire it. Nothing changes until the user chooses.
 */
import { useState } from "react";
import { ArrowRight, FileWarning, Sparkles } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "@/components/Badge";
import { Button } from "@/components/Button";
import { CardFields, cardTextValid, type CardText } from "@/components/CardFields";
import { Dialog } from "@/components/Dialog";
import { TextArea, TextInput } from "@/components/Input";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";
import { plural } from "@/lib/format";
import { viewerHref } from "@/lib/viewerLinks";
import { draftUpdate, useResolveChange, useSourceChanges } from "../api/loop";
import type { ResolveInput, SourceChange } from "../api/types";

type QuestionForm = { question: string; options: string[]; correct_index: number; explanation: string };

function ItemText({ change }: { change: SourceChange }) {
  const item = change.item as Record<string, unknown>;
  if (change.item_kind === "card") {
    return <p className="text-sm"><b>{String(item.front)}</b> <span className="text-ink-muted">— {String(item.back)}</span></p>;
  }
  const options = (item.options as string[] | undefined) ?? [];
  return (
    <p className="text-sm">
      <b>{String(item.question)}</b>{" "}
      <span className="text-ink-muted">— answer: {options[Number(item.correct_index)] ?? "?"}</span>
    </p>
  );
}

function Passage({ label, text, tone, href }: { label: string; text: string | null | undefined; tone: "old" | "new"; href?: string }) {
  return (
    <div className={tone === "old" ? "rounded-lg border border-line bg-canvas p-2.5" : "rounded-lg border border-accent/30 bg-accent-soft/40 p-2.5"}>
      <p className="mb-1 text-[11px] font-medium tracking-wide text-ink-faint uppercase">
        {label}{href && <> · <Link to={href} className="text-accent normal-case hover:underline">open</Link></>}
      </p>
      <p className="line-clamp-6 text-[13px] leading-relaxed whitespace-pre-wrap">{text ?? "The earlier version was deleted since; its text is no longer stored."}</p>
    </div>
  );
}

function UpdateDialog({ change, onClose }: { change: SourceChange; onClose: () => void }) {
  const resolve = useResolveChange();
  const toast = useToast();
  const item = change.item as Record<string, unknown>;
  const [card, setCard] = useState<CardText>({ kind: change.kind as CardText["kind"], front: String(item.front ?? ""), back: String(item.back ?? "") });
  const [question, setQuestion] = useState<QuestionForm>({ question: String(item.question ?? ""), options: (item.options as string[]) ?? [],
    correct_index: Number(item.correct_index ?? 0), explanation: String(item.explanation ?? "") });
  const [drafting, setDrafting] = useState(false);
  const ref = { item_kind: change.item_kind, item_id: change.item_id, block_id: change.block_id };
  const draft = async () => {
    setDrafting(true);
    try {
      const result = await draftUpdate(ref);
      if (result.card) setCard({ ...card, front: result.card.front, back: result.card.back ?? "" });
      if (result.question) setQuestion({ question: result.question.question, options: result.question.options ?? [],
        correct_index: result.question.correct_index, explanation: result.question.explanation });
    } catch (error) {
      toast({ tone: "error", title: "No draft", body: errorMessage(error) });
    } finally {
      setDrafting(false);
    }
  };
  const save = () => {
    const input: ResolveInput = change.item_kind === "card"
      ? { ...ref, action: "update", card: { front: card.front.trim(), back: card.back.trim() } }
      : { ...ref, action: "update", question: { type: change.kind as "mcq" | "true_false", ...question, source_block_ids: [] } };
    resolve.mutate(input, { onSuccess: () => {
      toast({ tone: "success", title: "Updated", body: "It now cites the new passage." });
      onClose();
    } });
  };
  const valid = change.item_kind === "card" ? cardTextValid(card) : question.question.trim() && question.explanation.trim();
  return (
    <Dialog open onClose={onClose} title={`Update this ${change.item_kind === "card" ? "card" : "question"}`} className="max-w-2xl"
      description="Rewrite it for the new passage, or let the model draft it first."
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" onClick={save} loading={resolve.isPending} disabled={!valid || drafting}>Save update</Button>
        </>
      }>
      <div className="space-y-3" data-testid="update-item">
        <Passage label="New passage" text={change.new?.text} tone="new" />
        <Button size="sm" icon={<Sparkles size={14} />} onClick={() => void draft()} loading={drafting}>Draft with the model</Button>
        {change.item_kind === "card" ? <CardFields value={card} onChange={setCard} kindFixed /> : (
          <div className="space-y-2">
            <TextArea value={question.question} onChange={(event) => setQuestion({ ...question, question: event.target.value })} rows={2} className="w-full" aria-label="Question" />
            {question.options.map((option, index) => (
              <label key={index} className="flex items-center gap-2 text-sm">
                <input type="radio" name="correct" checked={question.correct_index === index} onChange={() => setQuestion({ ...question, correct_index: index })} aria-label={`Option ${index + 1} is right`} />
                <TextInput value={option} disabled={change.kind === "true_false"} className="flex-1"
                  onChange={(event) => setQuestion({ ...question, options: question.options.map((o, i) => (i === index ? event.target.value : o)) })} aria-label={`Option ${index + 1}`} />
              </label>
            ))}
            <TextArea value={question.explanation} onChange={(event) => setQuestion({ ...question, explanation: event.target.value })} rows={2} className="w-full" aria-label="Explanation" />
          </div>
        )}
        {resolve.isError && <p role="alert" className="text-[13px] text-danger">{errorMessage(resolve.error)}</p>}
      </div>
    </Dialog>
  );
}

function ChangeRow({ change }: { change: SourceChange }) {
  const resolve = useResolveChange();
  const toast = useToast();
  const [updating, setUpdating] = useState(false);
  const ref = { item_kind: change.item_kind, item_id: change.item_id, block_id: change.block_id };
  const act = (action: "keep" | "retire") => resolve.mutate({ ...ref, action }, {
    onError: (error) => toast({ tone: "error", title: "Not saved", body: errorMessage(error) }),
  });
  const parent = change.item_kind === "card" ? `/study/decks/${change.parent_id}` : `/study/quizzes/${change.parent_id}`;
  return (
    <li className="space-y-2.5 rounded-xl border border-line bg-surface p-3" data-testid="source-change" data-item={change.item_id} data-status={change.status}>
      <div className="flex flex-wrap items-center gap-2 text-xs text-ink-muted">
        <Badge tone={change.status === "removed" ? "danger" : "warn"}>{change.status === "removed" ? "Passage removed" : "Its source changed"}</Badge>
        <span>{change.item_kind === "card" ? "Card" : "Question"} in <Link to={parent} className="text-accent hover:underline">{change.parent_title}</Link></span>
        <span>· {change.filename}</span>
      </div>
      <ItemText change={change} />
      <div className="grid items-stretch gap-2 md:grid-cols-[1fr_auto_1fr]">
        <Passage label="Before" text={change.old?.text} tone="old" />
        <ArrowRight size={16} className="hidden self-center text-ink-faint md:block" />
        {change.new ? <Passage label="Now" text={change.new.text} tone="new" href={viewerHref(change.document_id, { block: change.new.block_id, page: change.new.page })} />
          : <Passage label="Now" text="Nothing like it is left in the new version." tone="new" />}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button size="sm" onClick={() => act("retire")} disabled={resolve.isPending}>Retire</Button>
        <Button size="sm" onClick={() => act("keep")} disabled={resolve.isPending}>Keep as it is</Button>
        {change.new && <Button size="sm" variant="primary" onClick={() => setUpdating(true)}>Update…</Button>}
      </div>
      {updating && <UpdateDialog change={change} onClose={() => setUpdating(false)} />}
    </li>
  );
}

export function SourceChanges() {
  const changes = useSourceChanges();
  if (!changes.data?.count) return null;
  return (
    <section aria-labelledby="changes-title" data-testid="source-changes">
      <h2 id="changes-title" className="mb-2.5 flex items-center gap-2 text-sm font-semibold">
        <FileWarning size={16} className="text-warn" /> Sources changed
        <span className="text-xs font-normal text-ink-faint">{plural(changes.data.count, "item")} to check</span>
      </h2>
      <ul className="space-y-2.5">{changes.data.changes.map((change) => <ChangeRow key={`${change.item_id}-${change.block_id}`} change={change} />)}</ul>
    </section>
  );
}
