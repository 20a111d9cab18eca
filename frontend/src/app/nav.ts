/**
 * The main navigation, in order. A new screen is one entry here plus one route in `router.tsx`;
 * the sidebar, the mobile drawer and the command palette all read this list.
 */
import { GraduationCap, LayoutDashboard, Library, MessagesSquare, type LucideIcon } from "lucide-react";

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Words the command palette also matches. */
  keywords?: string;
}

export const NAV_ITEMS: NavItem[] = [
  { to: "/library", label: "Library", icon: Library, keywords: "knowledge base documents upload files" },
  { to: "/chat", label: "Chat", icon: MessagesSquare, keywords: "ask question answer sources" },
  { to: "/study", label: "Study", icon: GraduationCap, keywords: "quiz flashcards cards review workshop lessons mind map" },
  { to: "/dashboard", label: "Dashboard", icon: LayoutDashboard, keywords: "progress streak badges heatmap stats vault storage" },
];
