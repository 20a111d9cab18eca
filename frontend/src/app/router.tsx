/** Client routes. Feature screens load lazily so the first paint stays small. */
import { lazy, Suspense, type ReactNode } from "react";
import { createBrowserRouter, Navigate } from "react-router";
import { SkeletonRows } from "@/components/Skeleton";
import { AppShell } from "./shell/AppShell";
import { NotFound } from "./shell/NotFound";

const LibraryPage = lazy(() => import("@/features/library").then((m) => ({ default: m.LibraryPage })));
const ChatPage = lazy(() => import("@/features/chat").then((m) => ({ default: m.ChatPage })));
const study = () => import("@/features/study");
const StudyHub = lazy(() => study().then((m) => ({ default: m.StudyHub })));
const NewItemPage = lazy(() => study().then((m) => ({ default: m.NewItemPage })));
const JobPage = lazy(() => study().then((m) => ({ default: m.JobPage })));
const QuizPage = lazy(() => study().then((m) => ({ default: m.QuizPage })));
const DeckPage = lazy(() => study().then((m) => ({ default: m.DeckPage })));
const ReviewPage = lazy(() => study().then((m) => ({ default: m.ReviewPage })));
const WorkshopPage = lazy(() => study().then((m) => ({ default: m.WorkshopPage })));
const MindmapPage = lazy(() => study().then((m) => ({ default: m.MindmapPage })));
const NewPlanPage = lazy(() => study().then((m) => ({ default: m.NewPlanPage })));
const PlanPage = lazy(() => study().then((m) => ({ default: m.PlanPage })));
const PlanReviewPage = lazy(() => study().then((m) => ({ default: m.PlanReviewPage })));
const GuidePage = lazy(() => study().then((m) => ({ default: m.GuidePage })));
const OverviewPage = lazy(() => study().then((m) => ({ default: m.OverviewPage })));
const NoteEditorPage = lazy(() => import("@/features/library").then((m) => ({ default: m.NoteEditorPage })));
const ViewerPage = lazy(() => import("@/features/viewer").then((m) => ({ default: m.ViewerPage })));
const DashboardPage = lazy(() => import("@/features/dashboard").then((m) => ({ default: m.DashboardPage })));

function page(element: ReactNode) {
  return <Suspense fallback={<SkeletonRows rows={6} />}>{element}</Suspense>;
}

export const router = createBrowserRouter([
  {
    path: "/",
    element: <AppShell />,
    children: [
      { index: true, element: <Navigate to="/library" replace /> },
      { path: "library", element: page(<LibraryPage />) },
      { path: "library/documents/:documentId", element: page(<ViewerPage />) },
      { path: "chat/:sessionId?", element: page(<ChatPage />) },
      { path: "study", element: page(<StudyHub />) },
      { path: "study/new/:kind", element: page(<NewItemPage />) },
      { path: "study/jobs/:jobId", element: page(<JobPage />) },
      { path: "study/quizzes/:quizId", element: page(<QuizPage />) },
      { path: "study/decks/:deckId", element: page(<DeckPage />) },
      { path: "study/decks/:deckId/review", element: page(<ReviewPage />) },
      { path: "study/workshops/:workshopId/lessons?/:n?", element: page(<WorkshopPage />) },
      { path: "study/mindmaps/:mindmapId", element: page(<MindmapPage />) },
      { path: "study/plans/new", element: page(<NewPlanPage />) },
      { path: "study/plans/:planId", element: page(<PlanPage />) },
      { path: "study/plans/:planId/review", element: page(<PlanReviewPage />) },
      { path: "study/guides/:guideId", element: page(<GuidePage />) },
      { path: "study/overviews/:overviewId", element: page(<OverviewPage />) },
      { path: "notes/new", element: page(<NoteEditorPage />) },
      { path: "notes/:documentId", element: page(<NoteEditorPage />) },
      { path: "dashboard", element: page(<DashboardPage />) },
      { path: "*", element: <NotFound /> },
    ],
  },
]);
