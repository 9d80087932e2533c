import { idleTimeoutMs, loadWhenNeeded, nearViewportMargin } from '../../../frontend/src/islands/island-loader';

/** The one IntersectionObserver the loader makes, driven by the test. */
class FakeIntersectionObserver {
  static latest: FakeIntersectionObserver | undefined;
  readonly observed: Element[] = [];
  disconnected = false;
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeIntersectionObserver.latest = this;
  }
  observe(target: Element) {
    this.observed.push(target);
  }
  disconnect() {
    this.disconnected = true;
  }
  /** The watched section comes within the margin of the viewport (or not). */
  report(isIntersecting: boolean) {
    this.callback(
      this.observed.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry),
      this as never,
    );
  }
}

let idleCallbacks: IdleRequestCallback[];
let island: HTMLElement;
let load: jest.Mock;

beforeEach(() => {
  document.body.innerHTML = `
    <header><a id="header-link" href="#download-section">Free Cheat Sheet</a><a id="home" href="/">Home</a></header>
    <section id="download-section"><div id="cheat-sheet-form-island"><form><input id="name"></form></div></section>`;
  island = document.getElementById('cheat-sheet-form-island')!;
  load = jest.fn();
  idleCallbacks = [];
  FakeIntersectionObserver.latest = undefined;
  window.IntersectionObserver = FakeIntersectionObserver as never;
  window.requestIdleCallback = jest.fn((callback: IdleRequestCallback) => idleCallbacks.push(callback));
  window.cancelIdleCallback = jest.fn();
  window.history.replaceState(null, '', '/');
});

describe('loading the island', () => {
  test('waits: nothing is loaded before a trigger', () => {
    loadWhenNeeded(island, load);
    FakeIntersectionObserver.latest!.report(false);

    expect(load).not.toHaveBeenCalled();
  });

  test('when the download section comes near the viewport, with a margin', () => {
    loadWhenNeeded(island, load);
    const observer = FakeIntersectionObserver.latest!;

    expect(observer.observed).toEqual([document.getElementById('download-section')]);
    expect(observer.options.rootMargin).toBe(nearViewportMargin);
    observer.report(true);
    expect(load).toHaveBeenCalledTimes(1);
  });

  test('when the visitor focuses the form', () => {
    loadWhenNeeded(island, load);
    document.getElementById('name')!.focus();

    expect(load).toHaveBeenCalledTimes(1);
  });

  test('when the visitor follows a link to the download section', () => {
    loadWhenNeeded(island, load);
    document.getElementById('home')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(load).not.toHaveBeenCalled();

    document.getElementById('header-link')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(load).toHaveBeenCalledTimes(1);
  });

  test('when the address changes to #download-section', () => {
    loadWhenNeeded(island, load);
    window.history.replaceState(null, '', '/#download-section');
    window.dispatchEvent(new HashChangeEvent('hashchange'));

    expect(load).toHaveBeenCalledTimes(1);
  });

  test('at once when the page is opened at #download-section', () => {
    window.history.replaceState(null, '', '/#download-section');
    loadWhenNeeded(island, load);

    expect(load).toHaveBeenCalledTimes(1);
  });

  test('when the browser is idle after the page has loaded, within a timeout', () => {
    loadWhenNeeded(island, load);

    expect(window.requestIdleCallback).toHaveBeenCalledWith(expect.any(Function), { timeout: idleTimeoutMs });
    expect(load).not.toHaveBeenCalled();
    idleCallbacks[0]!({ didTimeout: false, timeRemaining: () => 10 });
    expect(load).toHaveBeenCalledTimes(1);
  });

  test('after a short delay where the browser has no idle callback', () => {
    jest.useFakeTimers();
    try {
      (window as { requestIdleCallback?: unknown }).requestIdleCallback = undefined;
      loadWhenNeeded(island, load);
      jest.advanceTimersByTime(1_000);
      expect(load).not.toHaveBeenCalled();
      jest.advanceTimersByTime(1_000);
      expect(load).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });

  test('once only, whatever happens next, and stops watching', () => {
    loadWhenNeeded(island, load);
    const observer = FakeIntersectionObserver.latest!;
    document.getElementById('name')!.focus();
    observer.report(true);
    document.getElementById('header-link')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));

    expect(load).toHaveBeenCalledTimes(1);
    expect(observer.disconnected).toBe(true);
    expect(window.cancelIdleCallback).toHaveBeenCalled();
  });
});
