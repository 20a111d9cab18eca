/** Text inputs, selects and text areas with one look. */
import { forwardRef, type InputHTMLAttributes, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";
import { ChevronDown } from "lucide-react";
import { cn } from "@/lib/cn";

const FIELD =
  "h-9 rounded-lg border border-line-strong bg-surface px-3 text-sm text-ink placeholder:text-ink-faint " +
  "transition-colors hover:border-ink-faint focus:border-accent focus:outline-none focus-visible:outline-2 " +
  "focus-visible:outline-offset-0 disabled:opacity-60";

export const TextInput = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function TextInput(
  { className, ...rest },
  ref,
) {
  return <input ref={ref} className={cn(FIELD, "min-w-0", className)} {...rest} />;
});

/** A native select with our chevron (the browser's own arrow hugs the edge and ignores the theme). */
export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(function Select(
  { className, children, ...rest },
  ref,
) {
  return (
    <div className={cn("relative", className)}>
      <select ref={ref} className={cn(FIELD, "w-full cursor-pointer appearance-none pr-9")} {...rest}>
        {children}
      </select>
      <ChevronDown size={15} aria-hidden="true" className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-ink-faint" />
    </div>
  );
});

export const TextArea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function TextArea(
  { className, ...rest },
  ref,
) {
  return <textarea ref={ref} className={cn(FIELD, "h-auto py-2 leading-relaxed", className)} {...rest} />;
});
