import '@testing-library/jest-dom';
import { toast } from 'sonner';

// sonner keeps its toasts in module state: without this, one test's toasts reappear in the next.
afterEach(() => {
  toast.dismiss();
});
