// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChatTurn } from "../lib/turns";
import { TurnView } from "./TurnView";

const turn: ChatTurn = {
  key: "u1", userMessageId: "u1", answerId: "a1", question: "What is in the picture?",
  attachments: [{ name: "square.png", kind: "image" }, { name: "notes.txt", kind: "document" }],
  thinking: "", preface: "", tools: [], citations: [], answer: "A blue square.", status: "complete",
};

afterEach(cleanup);

function renderTurn(value: ChatTurn = turn) {
  const onEdit = vi.fn();
  const onRegenerate = vi.fn();
  render(<TurnView turn={value} busy={false} onCite={vi.fn()} onEdit={onEdit} onRegenerate={onRegenerate} />);
  return { onEdit, onRegenerate };
}

function editTo(text: string) {
  fireEvent.click(screen.getByRole("button", { name: "Edit question" }));
  fireEvent.change(screen.getByRole("textbox", { name: "Edit your question" }), { target: { value: text } });
}

describe("editing a question with attachments", () => {
  it("keeps the attachments unless the box is unticked", () => {
    const { onEdit } = renderTurn();
    editTo("What colour is the square?");
    const keep = screen.getByRole("checkbox", { name: /Keep the attached files \(square\.png, notes\.txt\)/ });
    expect(keep).toBeChecked();
    fireEvent.click(screen.getByRole("button", { name: "Send edited question" }));
    expect(onEdit).toHaveBeenLastCalledWith(turn, "What colour is the square?", true);

    editTo("Forget the files");
    fireEvent.click(screen.getByRole("checkbox", { name: /Keep the attached files/ }));
    fireEvent.click(screen.getByRole("button", { name: "Send edited question" }));
    expect(onEdit).toHaveBeenLastCalledWith(turn, "Forget the files", false);
  });

  it("offers no choice when there was nothing attached", () => {
    const { onEdit } = renderTurn({ ...turn, attachments: [] });
    editTo("Plain question");
    expect(screen.queryByRole("checkbox")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Send edited question" }));
    expect(onEdit).toHaveBeenLastCalledWith(expect.objectContaining({ key: "u1" }), "Plain question", false);
  });

  it("regenerates the answer for the same turn", () => {
    const { onRegenerate } = renderTurn();
    fireEvent.click(screen.getByRole("button", { name: "Regenerate answer" }));
    expect(onRegenerate).toHaveBeenCalledWith(turn);
  });
});
