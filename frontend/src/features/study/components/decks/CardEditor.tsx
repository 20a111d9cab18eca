/** Add a card by hand or edit one: front, back and tags (spaces or commas between tags). */
import { useState } from "react";
import { Button } from "@/components/Button";
import { Dialog } from "@/components/Dialog";
import { TextArea, TextInput } from "@/components/Input";
import { errorMessage } from "@/lib/api";
import type { Card, CardInput } from "@/features/study/api/types";

export function parseTags(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((tag) => tag.trim()).filter(Boolean))];
}

export function CardEditor({ open, card, onSave, onClose, saving, error }: {
  open: boolean;
  card: Card | null;
  onSave: (input: CardInput) => void;
  onClose: () => void;
  saving: boolean;
  error: unknown;
}) {
  const [front, setFront] = useState(card?.front ?? "");
  const [back, setBack] = useState(card?.back ?? "");
  const [tags, setTags] = useState(card?.tags.join(" ") ?? "");
  const valid = front.trim().length > 0 && back.trim().length > 0;

  return (
    <Dialog open={open} onClose={onClose} title={card ? "Edit card" : "Add a card"} className="max-w-lg" initialFocus="textarea"
      description={card ? "Its review schedule stays as it is." : "It joins the deck as a new card, due for review now."}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="card-editor" loading={saving} disabled={!valid}>{card ? "Save card" : "Add card"}</Button>
        </>
      }
    >
      <form id="card-editor" className="space-y-3" onSubmit={(event) => {
        event.preventDefault();
        if (valid) onSave({ front: front.trim(), back: back.trim(), tags: parseTags(tags) });
      }}>
        <label className="block space-y-1">
          <span className="text-[13px] font-medium">Front</span>
          <TextArea value={front} onChange={(event) => setFront(event.target.value)} rows={3} maxLength={2000} className="w-full" placeholder="A question or a term" />
        </label>
        <label className="block space-y-1">
          <span className="text-[13px] font-medium">Back</span>
          <TextArea value={back} onChange={(event) => setBack(event.target.value)} rows={4} maxLength={4000} className="w-full" placeholder="The answer" />
        </label>
        <label className="block space-y-1">
          <span className="text-[13px] font-medium">Tags <span className="font-normal text-ink-faint">(optional)</span></span>
          <TextInput value={tags} onChange={(event) => setTags(event.target.value)} className="w-full" placeholder="biology cells" />
        </label>
        {error !== null && error !== undefined && <p role="alert" className="text-[13px] text-danger">{errorMessage(error)}</p>}
      </form>
    </Dialog>
  );
}
