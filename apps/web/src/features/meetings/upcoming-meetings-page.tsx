import { ClockIcon } from '../../components/icons';
import { MeetingListPage } from './meeting-list-page';

export default function UpcomingMeetingsPage() {
  return <MeetingListPage kind="upcoming" icon={ClockIcon} />;
}
