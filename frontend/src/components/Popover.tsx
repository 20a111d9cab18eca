/**
 * A small anchored panel (menus, pickers): opens from its trigger, closes on Esc or a click outside,
 * and returns focus to the trigger. `fixed` places it against the viewport instead, for triggers inside
 * a scrolling container (a table row) that would clip it; it opens upwards when there is no room below
 * and follows its trigger when the page scrolls.
 */
import { useCallback, useEffect, useId, useRef, useState, type CSSProperties, type ReactNode } from "react";
import { cn } from "@/lib/cn";

/** Room the panel is assumed to need below its trigger before it opens upwards instead. */
const FIXED_ROOM_PX = 200;

function fixedPlacement(trigger: DOMRect, align: "start" | "end"): CSSProperties {
  const below = window.innerHeight - trigger.bottom >= FIXED_ROOM_PX || trigger.top < FIXED_ROOM_PX;
  return {
    position: "fixed",
    ...(below ? { top: trigger.bottom + 6 } : { bottom: window.innerHeight - trigger.top + 6 }),
    ...(align === "end" ? { right: window.innerWidth - trigger.right } : { left: trigger.left }),
  };
}

export function Popover({ trigger, children, align = "start", side = "bottom", className, label, fixed = false }: {
  trigger: (props: { open: boolean; toggle: () => void; id: string }) => ReactNode;
  children: (close: () => void) => ReactNode;
  align?: "start" | "end";
  side?: "bottom" | "top";
  className?: string;
  label: string;
  fixed?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [placement, setPlacement] = useState<CSSProperties | undefined>(undefined);
  const root = useRef<HTMLDivElement | null>(null);
  // The same element as state, so the toggle handed to the trigger can measure it.
  const [rootElement, setRootElement] = useState<HTMLDivElement | null>(null);
  const id = useId();
  const attachRoot = useCallback((element: HTMLDivElement | null) => {
    root.current = element;
    setRootElement(element);
  }, []);

  const toggle = () => {
    if (!open && fixed && rootElement) setPlacement(fixedPlacement(rootElement.getBoundingClientRect(), align));
    setOpen((value) => !value);
  };

  useEffect(() => {
    if (!open || !fixed || !rootElement) return;
    // A fixed panel follows its trigger when the page scrolls or resizes.
    const follow = () => setPlacement(fixedPlacement(rootElement.getBoundingClientRect(), align));
    window.addEventListener("scroll", follow, true);
    window.addEventListener("resize", follow);
    return () => {
      window.removeEventListener("scroll", follow, true);
      window.removeEventListener("resize", follow);
    };
  }, [open, fixed, rootElement, align]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      event.stopPropagation();
      setOpen(false);
      root.current?.querySelector<HTMLElement>("[aria-controls]")?.focus();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey, true);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey, true);
    };
  }, [open]);

  return (
    <div ref={attachRoot} className="relative">
      {trigger({ open, toggle, id })}
      {open && (
        <div
          id={id}
          role="dialog"
          aria-label={label}
          style={fixed ? placement : undefined}
          className={cn(
            "z-40 min-w-64 rounded-xl border border-line bg-surface p-1.5 shadow-card",
            !fixed && "absolute",
            !fixed && (side === "bottom" ? "top-full mt-1.5" : "bottom-full mb-1.5"),
            !fixed && (align === "start" ? "left-0" : "right-0"),
            className,
          )}
        >
          {children(() => setOpen(false))}
        </div>
      )}
    </div>
  );
}
