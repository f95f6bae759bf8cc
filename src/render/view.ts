import { checkDescription } from '../records/check.ts';
import type { ViewDescription } from '../records/views.ts';
import { type Audience, type CompiledTree, compileTree } from './compile.ts';

export interface CompiledView extends ViewDescription {
  /** Renders a stored (v1) record in this view's shape for an audience. */
  render(stored: unknown, audience: Audience): Record<string, unknown>;
  readonly responseSchema: CompiledTree['responseSchema'];
}

export const schemaRef = (schemaName: string) => `#/components/schemas/${schemaName}`;

export function compileView(view: ViewDescription): CompiledView {
  checkDescription(view.record);
  const tree = compileTree(view.fields, view.blockedFlag, schemaRef(view.schemaName));
  const project = view.project;
  return {
    ...view,
    render: project ? (stored, audience) => tree.render(project(stored), audience) : tree.render,
    responseSchema: tree.responseSchema,
  };
}
