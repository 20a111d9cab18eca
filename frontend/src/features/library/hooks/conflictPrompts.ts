/**
 * Questions about name conflicts waiting for the user, outside React so an upload started on the
 * library keeps its question if the dialog is not on screen yet. `ask` is the `AskConflicts` the drop
 * uses; the conflict dialog shows the first question and answers it.
 */
import type { NameConflict } from "../api/types";
import type { ConflictChoice } from "../lib/conflicts";
import type { AskConflicts } from "./uploadDrop";

export interface ConflictPrompt {
  id: number;
  conflicts: NameConflict[];
  files: File[];
  answer: (choices: ConflictChoice[]) => void;
}

type Listener = () => void;

class ConflictPrompts {
  private queue: ConflictPrompt[] = [];
  private listeners = new Set<Listener>();
  private counter = 0;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The question on screen, or null. */
  current = (): ConflictPrompt | null => this.queue[0] ?? null;

  ask: AskConflicts = (conflicts, files) => new Promise((resolve) => {
    const id = ++this.counter;
    const answer = (choices: ConflictChoice[]) => {
      this.queue = this.queue.filter((prompt) => prompt.id !== id);
      this.listeners.forEach((listener) => listener());
      resolve(choices);
    };
    this.queue = [...this.queue, { id, conflicts, files, answer }];
    this.listeners.forEach((listener) => listener());
  });
}

export const conflictPrompts = new ConflictPrompts();
