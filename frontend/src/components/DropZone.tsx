/**
 * A drop target for files. Dragging over shows the target; dropping hands the files to `onFiles`.
 * Directories and non-file drags are ignored. Children render inside (e.g. a "choose files" button).
 */
import { useRef, useState, type DragEvent, type ReactNode } from "react";
import { cn } from "@/lib/cn";

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes("Files");
}

export function DropZone({ onFiles, children, className, label, disabled }: {
  onFiles: (files: File[]) => void;
  children: ReactNode;
  className?: string;
  label: string;
  disabled?: boolean;
}) {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);

  return (
    <div
      role="group"
      aria-label={label}
      data-dragging={dragging || undefined}
      onDragEnter={(event) => {
        if (!hasFiles(event) || disabled) return;
        event.preventDefault();
        depth.current += 1;
        setDragging(true);
      }}
      onDragOver={(event) => {
        if (!hasFiles(event) || disabled) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = "copy";
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        depth.current = 0;
        setDragging(false);
        if (disabled) return;
        const files = Array.from(event.dataTransfer?.files ?? []).filter((file) => file.size > 0 || file.type);
        if (files.length) onFiles(files);
      }}
      className={cn(
        "rounded-2xl border-2 border-dashed transition-colors",
        dragging ? "border-accent bg-accent-soft" : "border-line-strong bg-surface",
        className,
      )}
    >
      {children}
    </div>
  );
}
