/**
 * The study hub's public surface: its screens. Everything else here is internal. The mind map screen
 * (React Flow, dagre) loads on its own, only when a map is opened.
 */
import { createElement, lazy } from "react";

export { StudyHub } from "./components/StudyHub";
export { NewItemPage } from "./components/NewItemPage";
export { JobPage } from "./components/JobPage";
export { QuizPage } from "./components/quiz/QuizPage";
export { DeckPage } from "./components/decks/DeckPage";
export { ReviewPage } from "./components/decks/ReviewPage";
export { WorkshopPage } from "./components/workshops/WorkshopPage";
export { NewPlanPage, PlanPage, PlanReviewPage } from "./components/plans/PlanPages";
export { GuidePage } from "./components/guides/GuidePage";
export { OverviewPage } from "./components/overviews/OverviewPage";
const LazyMindmapPage = lazy(() => import("./components/mindmaps/MindmapPage").then((m) => ({ default: m.MindmapPage })));

export function MindmapPage() {
  return createElement(LazyMindmapPage);
}
