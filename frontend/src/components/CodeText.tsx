/** Plain text where `backticked` parts show as code (server hints like "run `ollama serve`"). */
export function CodeText({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`)/g);
  return (
    <>
      {parts.map((part, i) =>
        part.startsWith("`") && part.endsWith("`") && part.length > 2 ? (
          <code key={i} className="rounded bg-black/5 px-1 py-px font-mono text-[0.92em] text-ink dark:bg-white/10">
            {part.slice(1, -1)}
          </code>
        ) : (
          <span key={i}>{part}</span>
        ),
      )}
    </>
  );
}
