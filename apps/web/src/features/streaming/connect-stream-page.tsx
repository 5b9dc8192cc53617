import { BroadcastIcon } from '../../components/icons';
import { FeaturePendingPage } from '../../components/feature-pending-page';

export default function Page() {
  return <FeaturePendingPage page="connect_stream" icon={BroadcastIcon} />;
}
