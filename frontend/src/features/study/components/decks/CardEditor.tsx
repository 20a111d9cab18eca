/**
 * Add a card by hand or edit one: its kind (front/back, typed answer, cloze), its text and tags (spaces or
 * commas between tags). A cloze card hides parts of its text: select them and press "Hide selection".
 */
import { useState } from "react";
import { Button } from "@/components/Button";
import { CardFields, cardTextValid, type CardText } from "@/components/CardFields";
import { Dialog } from "@/components/Dialog";
import { TextInput } from "@/components/Input";
import { errorMessage } from "@/lib/api";
import type { Card, CardInput } from "@/features/study/api/types";

export { parseTags } from "@/lib/cards";
import { parseTags } from "@/lib/cards";

export function CardEditor({ open, card, onSave, onClose, saving, error }: {
  open: boolean;
  card: Card | null;
  onSave: (input: CardInput) => void;
  onClose: () => void;
  saving: boolean;
  error: unknown;
}) {
  const [text, setText] = useState<CardText>({ kind: card?.kind ?? "basic", front: card?.front ?? "", back: card?.back ?? "" });
  const [tags, setTags] = useState(card?.tags.join(" ") ?? "");
  const valid = cardTextValid(text);

  return (
    <Dialog open={open} onClose={onClose} title={card ? "Edit card" : "Add a card"} className="max-w-lg" initialFocus="textarea"
      description={card ? (card.kind === "cloze" ? "Every card of this note changes with it; their schedules stay." : "Its review schedule stays as it is.") : "It joins the deck as a new card, due for review now."}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="card-editor" loading={saving} disabled={!valid}>{card ? "Save card" : "Add card"}</Button>
        </>
      }
    >
      <form id="card-editor" className="space-y-3" onSubmit={(event) => {
        event.preventDefault();
        if (valid) onSave({ kind: text.kind, front: text.front.trim(), back: text.back.trim(), tags: parseTags(tags) });
      }}>
        <CardFields value={text} onChange={setText} kindFixed={card !== null} />
        <label className="block space-y-1">
          <span className="text-[13px] font-medium">Tags <span className="font-normal text-ink-faint">(optional)</span></span>
          <TextInput value={tags} onChange={(event) => setTags(event.target.value)} className="w-full" placeholder="biology cells" />
        </label>
        {error !== null && error !== undefined && <p role="alert" className="text-[13px] text-danger">{errorMessage(error)}</p>}
      </form>
    </Dialog>
  );
}
