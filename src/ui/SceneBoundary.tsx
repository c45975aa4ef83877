// An error boundary around one scene: a view that throws takes down only itself, saying why and offering to
// remount, while the rest runs on. React still reports the error to the console: never silent in tests.
import { Component, type ReactNode } from 'react';

interface Props {
  /** What the reader calls this part of the page, e.g. "fencing chain". */
  name: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

export class SceneBoundary extends Component<Props, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  // The failed subtree was unmounted, so clearing the error mounts the scene afresh, at the current snapshot.
  private reset = () => this.setState({ error: null });

  render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="banner banner-bad scene-error" role="alert" data-testid="scene-error">
        <p>
          <strong>The {this.props.name} stopped working.</strong> The rest of the lab keeps running.
        </p>
        <p className="mono">{error.message || error.name}</p>
        <button type="button" className="btn" onClick={this.reset}>
          Reset this scene
        </button>
      </div>
    );
  }
}
