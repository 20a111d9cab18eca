/** The things the study hub makes: their names, icons, and one sentence that says what each is for. */
import { AudioLines, BookOpenText, Crosshair, Gauge, Layers, ListChecks, Network, ScrollText, type LucideIcon } from "lucide-react";
import type { GeneratorKind, JobKind } from "../api/types";

export interface KindInfo {
  kind: GeneratorKind;
  noun: string;
  icon: LucideIcon;
  blurb: string;
}

export const KINDS: Record<GeneratorKind, KindInfo> = {
  quiz: {
    kind: "quiz", noun: "quiz", icon: ListChecks,
    blurb: "Questions one at a time, graded as you go, each with an explanation and its source.",
  },
  deck: {
    kind: "deck", noun: "deck", icon: Layers,
    blurb: "A deck scheduled by spaced repetition: review what's due and remember it for good.",
  },
  workshop: {
    kind: "workshop", noun: "workshop", icon: BookOpenText,
    blurb: "A short course with objectives and lessons written from your material, then a recap quiz.",
  },
  mindmap: {
    kind: "mindmap", noun: "mind map", icon: Network,
    blurb: "The main topics and how they connect, on a canvas you can arrange and export.",
  },
  guide: {
    kind: "guide", noun: "study guide", icon: ScrollText,
    blurb: "A briefing, FAQ, glossary or timeline where every statement cites its passage.",
  },
  audio_overview: {
    kind: "audio_overview", noun: "audio overview", icon: AudioLines,
    blurb: "Two hosts talk your sources through, spoken on this machine; the script beside it cites its passages.",
  },
};

export const GENERATOR_KINDS = Object.keys(KINDS) as GeneratorKind[];

export function isGeneratorKind(value: string | undefined): value is GeneratorKind {
  return value !== undefined && value in KINDS;
}

/** The icon of any job (lessons and recaps borrow their parent's). */
export const JOB_ICONS: Record<JobKind, LucideIcon> = {
  quiz: ListChecks, recap: ListChecks, deck: Layers, workshop: BookOpenText, lesson: BookOpenText, mindmap: Network,
  weak_spots: Crosshair, guide: ScrollText, optimize: Gauge, audio_overview: AudioLines,
};
