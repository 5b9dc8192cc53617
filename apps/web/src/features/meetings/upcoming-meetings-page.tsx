import { ClockIcon } from 'lucide-react';
import { MeetingListPage } from './meeting-list-page';

export default function UpcomingMeetingsPage() {
  return <MeetingListPage kind="upcoming" icon={ClockIcon} />;
}
