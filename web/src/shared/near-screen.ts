import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether the element has come within one and a half screens of the viewport (and stays true once it has): pages are
 * drawn only then, so a 100-page document opens at once. `initially` true for what is on screen from the start.
 */
export function useNearScreen(ref: RefObject<HTMLElement | null>, initially: boolean): boolean {
  const [near, setNear] = useState(initially);
  useEffect(() => {
    const element = ref.current;
    if (!element || near) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: '150% 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, ref]);
  return near;
}
