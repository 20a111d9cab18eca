/** Asks before a quiz, workshop or mind map is deleted; deleted, it goes back to the study hub, and a failure shows as a toast. */
import type { UseMutationResult } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { ConfirmDialog } from "@/components/Dialog";
import { useToast } from "@/components/Toast";
import { errorMessage } from "@/lib/api";

export function DeleteRecordDialog({ open, id, remove, title, description, confirmLabel, onCancel }: {
  open: boolean;
  /** The record to delete, and the mutation that deletes it (`useDeleteQuiz()`, …). */
  id: string;
  remove: UseMutationResult<void, Error, string>;
  title: string;
  description: string;
  confirmLabel: string;
  onCancel: () => void;
}) {
  const navigate = useNavigate();
  const toast = useToast();
  return (
    <ConfirmDialog
      open={open}
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      busy={remove.isPending}
      onCancel={onCancel}
      onConfirm={() => remove.mutate(id, {
        onSuccess: () => navigate("/study", { replace: true }),
        onError: (error) => toast({ tone: "error", title: "Couldn't delete", body: errorMessage(error) }),
      })}
    />
  );
}
