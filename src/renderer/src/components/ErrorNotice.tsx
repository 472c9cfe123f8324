/**
 * A failed action's message above the content it concerns. It always has a close button, and the
 * caller clears it when the same action next succeeds; a page that unmounts on navigation drops it
 * with its state (issue 21 item 10: notices used to stay until a reload).
 */
export function ErrorNotice({
  error,
  onDismiss,
  testId,
}: {
  error: string | null;
  onDismiss(): void;
  testId?: string;
}) {
  if (!error) return null;
  return (
    <p className="notice notice-error" role="alert" data-testid={testId}>
      <span>{error}</span>
      <button type="button" className="link" onClick={onDismiss} aria-label="dismiss" title="Dismiss">
        ×
      </button>
    </p>
  );
}
