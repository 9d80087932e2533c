import { Component, type ReactNode } from 'react';
import { errorFallback } from '../../../core/content/messages';

interface ErrorBoundaryState {
  readonly error: Error | null;
}

/**
 * The generic fallback when rendering fails: 'Unexpected Application Error!' and the error's text,
 * in place of what failed. Only the island renders in the browser, so it is the form's place.
 * React itself logs the error it caught, with its component stack (`console.error`).
 */
export class ErrorBoundary extends Component<{ readonly children: ReactNode }, ErrorBoundaryState> {
  state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    return (
      <div className="error-fallback" role="alert">
        <h3 className="error-fallback__title">{errorFallback.title}</h3>
        <pre className="error-fallback__message">{error.message}</pre>
      </div>
    );
  }
}
