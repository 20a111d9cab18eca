import { Compass } from "lucide-react";
import { Link } from "react-router";
import { EmptyState } from "@/components/EmptyState";

export function NotFound() {
  return (
    <EmptyState icon={<Compass size={20} />} title="Nothing here" className="py-24"
      actions={<Link to="/library" className="text-sm font-medium text-accent hover:underline">Go to the library</Link>}>
      This page doesn't exist. It may have been a chat or document that was deleted.
    </EmptyState>
  );
}
