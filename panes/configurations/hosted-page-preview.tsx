// The live preview of a hosted payment page: the shopper page's own renderer (src/contract/hosted-page-render.ts)
// drawn into a sandboxed frame (no scripts, no forms: it can never submit a payment or create any record), at
// desktop or phone width, redrawn on every change. The markup goes in as the frame's body; the stylesheet as a
// constructed sheet, which the portal's Content-Security-Policy (style-src 'self') allows where a <style> is not.
import { useEffect, useRef } from 'react';
import type { PreviewWidth } from '../../src/contract/configurations.ts';
import { hostedPageBody, hostedPageCss, type HostedPageView } from '../../src/contract/hosted-page-render.ts';

export function HostedPagePreview({ view, width }: { view: HostedPageView; width: PreviewWidth }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const body = hostedPageBody(view);
  const css = hostedPageCss(view.design);

  useEffect(() => {
    const draw = () => {
      const doc = frame.current?.contentDocument;
      if (!doc?.body) return;
      doc.documentElement.lang = 'en-GB';
      doc.title = 'Hosted payment page preview';
      doc.body.innerHTML = body;
      const View = doc.defaultView as (Window & typeof globalThis) | null;
      if (View && 'adoptedStyleSheets' in doc && typeof View.CSSStyleSheet?.prototype.replaceSync === 'function') {
        const sheet = new View.CSSStyleSheet();
        sheet.replaceSync(css);
        doc.adoptedStyleSheets = [sheet];
      } else {
        let style = doc.head.querySelector('style');
        if (!style) style = doc.head.appendChild(doc.createElement('style'));
        style.textContent = css;
      }
    };
    draw();
    const element = frame.current;
    element?.addEventListener('load', draw);
    return () => element?.removeEventListener('load', draw);
  }, [body, css]);

  return (
    <iframe
      ref={frame}
      title={`Preview of the payment page at ${width} width`}
      sandbox="allow-same-origin"
      data-width={width}
      srcDoc="<!doctype html><html lang='en-GB'><head><title>Hosted payment page preview</title></head><body></body></html>"
    />
  );
}
