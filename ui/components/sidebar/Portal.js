/**
 * Renders its children into a node at the end of `<body>`: a dialog opened from the
 * sidebar must not live inside the drawer (a transformed element would become the
 * containing block of its fixed layer on phones).
 */
import { render } from "preact";
import { useEffect, useRef } from "preact/hooks";

/** @param {{children: any}} props */
export function Portal({ children }) {
  const host = useRef(/** @type {HTMLDivElement|null} */ (null));
  useEffect(() => {
    const el = document.createElement("div");
    el.className = "portal";
    document.body.append(el);
    host.current = el;
    render(children, el);
    return () => {
      render(null, el);
      el.remove();
      host.current = null;
    };
  }, []);
  useEffect(() => {
    if (host.current) render(children, host.current);
  });
  return null;
}
