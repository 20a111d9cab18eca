// @vitest-environment jsdom
import { createEvent, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { DropZone } from "./DropZone";

function dataTransfer(files: File[]) {
  return { files, types: ["Files"], dropEffect: "none" };
}

describe("DropZone", () => {
  it("hands dropped files over and shows the drag state meanwhile", () => {
    const onFiles = vi.fn();
    render(<DropZone label="Drop here" onFiles={onFiles}>content</DropZone>);
    const zone = screen.getByRole("group", { name: "Drop here" });
    const files = [new File(["a"], "a.md"), new File(["b"], "b.txt")];
    fireEvent.dragEnter(zone, { dataTransfer: dataTransfer(files) });
    expect(zone).toHaveAttribute("data-dragging");
    const drop = createEvent.drop(zone, { dataTransfer: dataTransfer(files) });
    fireEvent(zone, drop);
    expect(onFiles).toHaveBeenCalledWith(files);
    expect(zone).not.toHaveAttribute("data-dragging");
  });
});
