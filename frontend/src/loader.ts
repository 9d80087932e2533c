/**
 * The one script every page loads up front, and all of the JavaScript before interaction: the
 * page itself is pre-rendered HTML that React never touches (start-page.ts says what it does).
 * It must stay free of React: `npm run measure:bundle` and a test hold it to 5 KB gzip.
 */

import './styles.css';
import { startPage } from './start-page';

startPage();
