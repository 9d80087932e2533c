import type { ToastCopy } from '../../../core/content/messages';

/** A toast on screen: its words, its colour and an id to remove it by. */
export interface ShownToast {
  readonly id: number;
  readonly copy: ToastCopy;
  readonly kind: 'success' | 'error';
}

/** How long a toast stays when the spec gives no duration (what the toast library showed before). */
export const defaultToastMs = 4_000;

/** The toast's words in the accessible name of its close button. */
export const closeToastLabel = 'Close toast';

interface ToastsProps {
  readonly toasts: readonly ShownToast[];
  readonly onDismiss: (id: number) => void;
}

/**
 * The form's toasts, newest first, at the top of the screen. A toast's life is a CSS animation
 * (styles.css) lasting its duration: it pauses while the pointer or focus is on the toast, and its
 * end removes it, so no timer is kept here. The region is always there, so that screen readers
 * announce what is added to it.
 */
export function Toasts({ toasts, onDismiss }: ToastsProps) {
  return (
    <section className="toasts" aria-label="Notifications" aria-live="polite">
      {toasts.length > 0 && (
        <ol>
          {toasts.map(({ id, copy, kind }) => (
            <li
              key={id}
              className={`toast toast--${kind}`}
              style={{ animationDuration: `${copy.duration ?? defaultToastMs}ms` }}
              onAnimationEnd={() => onDismiss(id)}
            >
              <p className="toast__title">{copy.title}</p>
              <p>{copy.description}</p>
              <button type="button" className="toast__close" aria-label={closeToastLabel} onClick={() => onDismiss(id)}>
                ×
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
