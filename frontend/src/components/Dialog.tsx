/**
 * Modal dialogs on the native <dialog> element: the browser traps focus, Esc closes, and the page
 * behind is inert. `ConfirmDialog` is the one way we ask "are you sure?".
 */
import { useEffect, useId, useRef, type ReactNode } from "react";
import { X } from "lucide-react";
import { cn } from "@/lib/cn";
import { Button, IconButton } from "./Button";

export function Dialog({ open, onClose, title, description, children, footer, className, initialFocus }: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
  /** CSS selector of the element to focus when opening (default: the first focusable one). */
  initialFocus?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      if (initialFocus) dialog.querySelector<HTMLElement>(initialFocus)?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open, initialFocus]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      // The close event is queued when the dialog closes, and the browser may handle input first: Ctrl+K
      // pressed as the palette closed on Enter reopened it, and the late event closed it again (the keys
      // typed next went to the page). Only a dialog that is closed now has closed.
      onClose={() => {
        if (!ref.current?.open) onClose();
      }}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
      className={cn(
        "m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl border border-line bg-surface p-0 text-ink shadow-card",
        "backdrop:bg-black/40",
        className,
      )}
    >
      {open && (
        <div className="p-5">
          <div className="flex items-start justify-between gap-4">
            <h2 id={titleId} className="text-base font-semibold">{title}</h2>
            <IconButton label="Close" size="sm" onClick={onClose} className="-mr-1.5 -mt-1">
              <X size={16} />
            </IconButton>
          </div>
          {description && <div id={descriptionId} className="mt-1.5 text-sm text-ink-muted">{description}</div>}
          {children && <div className="mt-4">{children}</div>}
          {footer && <div className="mt-5 flex justify-end gap-2">{footer}</div>}
        </div>
      )}
    </dialog>
  );
}

export function ConfirmDialog({ open, title, description, confirmLabel, cancelLabel = "Cancel", onConfirm, onCancel, busy,
  destructive = true }: {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** The safe way out (default "Cancel"; say "Keep …" when the action itself is a cancel). */
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
  destructive?: boolean;
}) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      title={title}
      description={description}
      initialFocus="[data-autofocus]"
      footer={
        <>
          <Button onClick={onCancel} data-autofocus>{cancelLabel}</Button>
          <Button variant={destructive ? "danger" : "primary"} onClick={onConfirm} loading={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    />
  );
}
