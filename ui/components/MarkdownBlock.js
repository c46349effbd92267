/**
 * One top-level Markdown block, re-rendered only when its source text changes, so a
 * streaming message re-renders its last block only.
 */
import { Component } from "preact";
import { renderBlock } from "../markdown/render.js";

/** @extends {Component<{block: import("../markdown/parse.js").Block}>} */
export class MarkdownBlock extends Component {
  /**
   * @override
   * @param {{block: import("../markdown/parse.js").Block}} next
   */
  shouldComponentUpdate(next) {
    return next.block.src !== this.props.block.src || next.block.t !== this.props.block.t;
  }

  render() {
    return renderBlock(this.props.block);
  }
}
