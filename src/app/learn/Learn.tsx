// The learning section under the lab: quorum arithmetic and the check-yourself questions.
import { CheckYourself } from './CheckYourself';
import { QuorumTable } from './QuorumTable';

export function Learn() {
  return (
    <div className="learn">
      <QuorumTable />
      <CheckYourself />
    </div>
  );
}
