import { Component, type ErrorInfo, type ReactNode } from 'react';
import { errorFallback } from '../../../core/content/site';

interface ErrorBoundaryState {
  readonly error: Error | null;
}

/** The generic fallback when rendering fails: 'Unexpected Application Error!' and the error's text. */
export class ErrorBoundary extends Component<{ readonly children: ReactNode }, ErrorBoundaryState> {
  state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Rendering failed:', error, info.componentStack);
  }

  render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    return (
      <main id="main" className="error-fallback">
        <div role="alert">
          <h1>{errorFallback.title}</h1>
          <pre className="error-fallback__message">{error.message}</pre>
        </div>
      </main>
    );
  }
}
