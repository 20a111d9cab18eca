// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Dialog } from "./Dialog";

afterEach(cleanup);

describe("Dialog", () => {
  it("ignores a close event that arrives after it was opened again", () => {
    const onClose = vi.fn();
    const view = render(<Dialog open title="Jump to" onClose={onClose} />);
    const dialog = screen.getByRole("dialog", { hidden: true }) as HTMLDialogElement;
    view.rerender(<Dialog open={false} title="Jump to" onClose={onClose} />);
    view.rerender(<Dialog open title="Jump to" onClose={onClose} />);
    expect(dialog.open).toBe(true);
    fireEvent(dialog, new Event("close")); // the event queued by the close before, handled only now
    expect(onClose).not.toHaveBeenCalled();
  });

  it("reports a close the browser made itself", () => {
    const onClose = vi.fn();
    render(<Dialog open title="Jump to" onClose={onClose} />);
    const dialog = screen.getByRole("dialog", { hidden: true }) as HTMLDialogElement;
    dialog.close(); // e.g. a form with method="dialog" submitted
    fireEvent(dialog, new Event("close"));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
