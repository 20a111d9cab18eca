/**
 * The fields of a card of any kind — front/back, typed answer, cloze — shared by the deck's card editor
 * and "make a card from this passage" (viewer, chat). A cloze card hides parts of its text: select them
 * and press "Hide selection".
 */
import { useRef } from "react";
import { EyeOff } from "lucide-react";
import { clozeNumbers, hideAsCloze, KIND_LABEL, type CardKind } from "@/lib/cards";
import { plural } from "@/lib/format";
import { Button } from "./Button";
import { Select, TextArea } from "./Input";

const KINDS = ["basic", "typed", "cloze"] as const;

export interface CardText {
  kind: CardKind;
  front: string;
  back: string;
}

export function cardTextValid({ kind, front, back }: CardText): boolean {
  if (kind === "cloze") return clozeNumbers(front).length > 0;
  return front.trim().length > 0 && back.trim().length > 0 && (kind !== "typed" || back.trim().length <= 300);
}

/** The fields of a card of any kind; `kindFixed` when the kind cannot change (an existing card). */
export function CardFields({ value, onChange, kindFixed = false }: {
  value: CardText;
  onChange: (value: CardText) => void;
  kindFixed?: boolean;
}) {
  const front = useRef<HTMLTextAreaElement>(null);
  const { kind } = value;
  const numbers = clozeNumbers(value.front);
  const hide = () => {
    const area = front.current;
    if (!area) return;
    const next = hideAsCloze(value.front, area.selectionStart, area.selectionEnd);
    onChange({ ...value, front: next.text });
    requestAnimationFrame(() => {
      area.focus();
      area.setSelectionRange(next.cursor, next.cursor);
    });
  };
  return (
    <div className="space-y-3">
      {!kindFixed && (
        <label className="block space-y-1">
          <span className="text-[13px] font-medium">Kind of card</span>
          <Select value={kind} onChange={(event) => onChange({ ...value, kind: event.target.value as CardKind })} aria-label="Kind of card" className="w-full sm:w-56">
            {KINDS.map((option) => <option key={option} value={option}>{KIND_LABEL[option]}</option>)}
          </Select>
        </label>
      )}
      <label className="block space-y-1">
        <span className="flex items-center justify-between gap-2 text-[13px] font-medium">
          {kind === "cloze" ? "Text" : "Front"}
          {kind === "cloze" && (
            <Button size="sm" icon={<EyeOff size={13} />} onClick={hide} onMouseDown={(event) => event.preventDefault()}>Hide selection</Button>
          )}
        </span>
        <TextArea ref={front} value={value.front} onChange={(event) => onChange({ ...value, front: event.target.value })} rows={3} maxLength={2000} className="w-full"
          placeholder={kind === "cloze" ? "The {{c1::mitochondria}} make {{c2::ATP}}." : "A question or a term"} aria-label={kind === "cloze" ? "Text" : "Front"} />
        {kind === "cloze" && (
          <span className="block text-xs text-ink-faint" data-testid="cloze-count">
            {numbers.length ? `${plural(numbers.length, "card")}: one per deletion (${numbers.map((n) => `c${n}`).join(", ")}).` : "Select words and press “Hide selection”, or write {{c1::…}}."}
          </span>
        )}
      </label>
      <label className="block space-y-1">
        <span className="text-[13px] font-medium">
          {kind === "cloze" ? <>Extra <span className="font-normal text-ink-faint">(optional, shown with the answer)</span></> : kind === "typed" ? "Answer to type" : "Back"}
        </span>
        <TextArea value={value.back} onChange={(event) => onChange({ ...value, back: event.target.value })} rows={kind === "typed" ? 1 : 4}
          maxLength={kind === "typed" ? 300 : 4000} className="w-full" placeholder={kind === "typed" ? "A word or a short phrase" : "The answer"}
          aria-label={kind === "cloze" ? "Extra" : kind === "typed" ? "Answer to type" : "Back"} />
      </label>
    </div>
  );
}
