/** Exam plans on the client: when the exam is, what is left today, retention as a percentage. Pure. */
import type { Plan } from "../api/types";

/** "in 12 days", "tomorrow", "today", "3 days ago" — from the plan's days left. */
export function examWhen(plan: Pick<Plan, "days_left" | "status">): string {
  if (plan.status === "exam_passed") return "passed";
  if (plan.days_left === 0) return "today";
  if (plan.days_left === 1) return "tomorrow";
  return `in ${plan.days_left} days`;
}

/** What is left to do today: the plan's reviews and new cards (a learnt card's next step counts once). */
export function todayLeft(plan: Plan): number {
  return plan.today.reviews_due + plan.today.new_due;
}

export function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}
