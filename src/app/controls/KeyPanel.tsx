// The stage's key in the side column on a wide screen, where it costs the stage none of its height (at
// 1280 x 800). Elsewhere the stage shows the same key itself (StageLegend).
import { algorithmFor } from '../../engine';
import { useLab } from '../../store/context';
import { StageLegend } from '../../../scenes/ClusterScene/StageLegend';

export function KeyPanel() {
  const algorithm = useLab((s) => s.experiment.algorithm);
  return (
    <div className="panel key-panel" aria-labelledby="key-panel-title">
      <h2 id="key-panel-title">On the stage</h2>
      <StageLegend alg={algorithmFor(algorithm)} />
    </div>
  );
}
