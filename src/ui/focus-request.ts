// Focus asked for by an action whose result is not rendered yet (a panel that appears, a row that was added, a
// control that replaces the one pressed): taken once React has committed the change, and a few frames later still if
// the element comes with data on its way. An action that removes or disables the focused control asks for its
// successor here, so focus never falls to the page's body.
import { useCallback, useEffect, useState } from 'react';

export type FocusTarget = () => HTMLElement | null | undefined;

/** Frames to wait at most for an element that is not there yet (about a quarter of a second). */
const framesToWait = 15;

export function useFocusRequest(): (target: FocusTarget) => void {
  const [request, setRequest] = useState<{ seq: number; target: FocusTarget } | null>(null);
  useEffect(() => {
    if (!request) return undefined;
    const take = () => {
      const element = request.target();
      if (!element?.isConnected) return false;
      element.focus({ preventScroll: false });
      return true;
    };
    if (take()) return undefined;
    let frames = 0;
    let frame = requestAnimationFrame(function retry() {
      frames += 1;
      if (!take() && frames < framesToWait) frame = requestAnimationFrame(retry);
    });
    return () => cancelAnimationFrame(frame);
  }, [request]);
  return useCallback((target: FocusTarget) => setRequest((current) => ({ seq: (current?.seq ?? 0) + 1, target })), []);
}
