import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import 'sonner/dist/styles.css';
import './styles.css';
import { App } from './app';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const app = (
  <StrictMode>
    <App path={window.location.pathname} />
  </StrictMode>
);

// The build pre-renders every page; only the dev server serves an empty root.
if (container.hasChildNodes()) hydrateRoot(container, app);
else createRoot(container).render(app);
