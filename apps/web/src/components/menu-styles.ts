export const MENU_CONTENT_CLASSES =
  'z-50 min-w-48 animate-fade-in rounded-xl border border-slate-200 bg-white p-1 text-slate-800 shadow-lg shadow-slate-900/10 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:shadow-black/40';

export const MENU_ITEM_CLASSES =
  'flex cursor-pointer select-none items-center gap-2 rounded-lg px-3 py-2 text-sm outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800';
