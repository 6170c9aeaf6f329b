// When the page's first contentful paint has reached the screen (the paint timing entry comes with
// the frame's presentation). Work that can wait for it (unpacking and compiling the core, wording
// the static texts) starts then, so that it does not compete with the first frame's raster for the
// CPU: in a Chromium trace of the offline file (2026-12-01), unpacking (93 ms on the main thread)
// ran while the first frame was still being rasterized. A hidden tab, or a browser without paint
// timing, goes on at once or after a second.
export function afterFirstPaint(fn) {
  let done = false;
  const once = () => { if (!done) { done = true; fn(); } };
  if (document.visibilityState === 'hidden' || performance.getEntriesByName('first-contentful-paint').length) return once();
  try {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length) { observer.disconnect(); once(); }
    }).observe({ type: 'paint', buffered: true });
  } catch {
    requestAnimationFrame(() => setTimeout(once, 0));
  }
  setTimeout(once, 1000);
}
