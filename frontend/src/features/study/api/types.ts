/** The study API's shapes, named, from the generated OpenAPI schema (backend/study/*). */
import type { components } from "@/api/schema";

type Schemas = components["schemas"];

export type Job = Schemas["JobOut"];
export type JobKind = Job["kind"];
export type JobStatus = Job["status"];
export type Source = Schemas["SourceOut"];
export type Difficulty = Schemas["QuizRequest"]["difficulty"];
export type ScopeOut = Schemas["ScopeOut"];

export type QuizSummary = Schemas["QuizSummary"];
export type Quiz = Schemas["QuizOut"];
export type Question = Schemas["QuestionOut"];
export type QuestionType = Question["type"];
export type Attempt = Schemas["AttemptOut"];
export type Answer = Schemas["AnswerOut"];
export type GradedAnswer = Schemas["GradedAnswer"];

export type { DeckSummary } from "@/api/types";
export type Deck = Schemas["DeckOut"];
export type Card = Schemas["CardOut"];
export type Due = Schemas["DueOut"];
export type Review = Schemas["ReviewOut"];
export type Rating = Schemas["ReviewIn"]["rating"];
export type CardInput = Schemas["CardIn"];
export type CardKind = Card["kind"];
export type CardDraft = Schemas["CardDraftOut"];
export type Segment = Schemas["SegmentOut"];

export type Plan = Schemas["PlanOut"];
export type PlanInput = Schemas["PlanIn"];
export type PlanCards = Schemas["PlanCardsOut"];
export type SchedulerStatus = Schemas["SchedulerOut"];
export type SourceChange = Schemas["ChangeOut"];
export type SourceChanges = Schemas["ChangesOut"];
export type UpdateDraft = Schemas["UpdateDraftOut"];
export type ResolveInput = Schemas["ResolveIn"];
export type MistakeCard = Schemas["MistakeCardOut"];

export type GuideSummary = Schemas["GuideSummary"];
export type Guide = Schemas["GuideOut"];
export type GuideType = Guide["guide_type"];
export type OverviewSummary = Schemas["OverviewSummary"];
export type Overview = Schemas["OverviewOut"];
export type OverviewLine = Overview["lines"][number];

export type WorkshopSummary = Schemas["WorkshopSummary"];
export type Workshop = Schemas["WorkshopOut"];
export type LessonMeta = Schemas["LessonMeta"];
export type Lesson = Schemas["LessonOut"];
export type WorkshopProgress = Schemas["ProgressOut"];

export type MindmapSummary = Schemas["MindmapSummary"];
export type Mindmap = Schemas["MindmapOut"];
export type MindNode = Schemas["MindNode"];
export type MapLayout = Schemas["LayoutIn"]["layout"];
export type Positions = Mindmap["positions"];
export type MindmapExportFormat = Schemas["ExportIn"]["format"];

/**
 * What a generator is asked for (the body of `POST /api/study/<kind>`), minus the token added when
 * sending. Every field is required here although the schema marks them optional (the server has
 * defaults): the UI always sends its scope and settings, and "try again" re-sends them as they were.
 */
export type GeneratorKind = "quiz" | "deck" | "workshop" | "mindmap" | "guide" | "audio_overview";
export type ScopeIn = Required<Schemas["ScopeIn"]>;
type Sent<T> = Required<Omit<T, "client_token" | "scope">> & { scope: ScopeIn };
export type QuizParams = Sent<Schemas["QuizRequest"]>;
export type DeckParams = Sent<Schemas["DeckRequest"]>;
export type WorkshopParams = Sent<Schemas["WorkshopRequest"]>;
export type MindmapParams = Sent<Schemas["MindmapRequest"]>;
export type GuideParams = Sent<Schemas["GuideRequest"]>;
export type OverviewParams = Sent<Schemas["OverviewRequest"]>;
export type GeneratorParams = QuizParams | DeckParams | WorkshopParams | MindmapParams | GuideParams | OverviewParams;
