import { HistoryIcon } from 'lucide-react';
import { MeetingListPage } from './meeting-list-page';

export default function RecentMeetingsPage() {
  return <MeetingListPage kind="recent" icon={HistoryIcon} />;
}
