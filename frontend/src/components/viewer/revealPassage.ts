/**
 * Brings the cited passage into view. A passage that fits is centred; one taller than most of the view
 * is shown from its start instead, since centred its first lines would sit above the view or under the
 * sticky page bar (the element's `scroll-mt-*` class keeps its start clear of that bar).
 */
export function revealPassage(element: HTMLElement | null): void {
  if (!element) return;
  const tall = element.getBoundingClientRect().height > window.innerHeight * 0.6;
  element.scrollIntoView({ block: tall ? "start" : "center" });
}
